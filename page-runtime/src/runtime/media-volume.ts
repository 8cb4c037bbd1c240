// An <audio>/<video>'s volume as compositions write it: data-volume, and scripts (a GSAP tween on `volume`, a fade)
// setting it over time, both from 0 up to +12 dB (core/composition/audio-gain.ts). The browser's own volume stops at
// 1 and throws past it, so each element gets its own `volume` property that keeps the authored gain:
// - render mode: nothing plays; the node samples the gain along the timeline (sampleVolumes) and mixes with ffmpeg;
// - play mode: the element plays at min(gain, 1), and above 1 through a Web Audio gain node (same-origin media
//   only: a cross-origin source without CORS would go silent through Web Audio, so it stays capped at 1).
import { clampGain, readVolume } from "../../../core/composition/audio-gain.ts";
import { logIgnored } from "./log-ignored.ts";

export interface VolumeKeyframe {
  time: number;
  volume: number;
}

let context: AudioContext | null = null;
const gains = new WeakMap<HTMLMediaElement, GainNode | null>();

/** The Web Audio gain node routing `el`, made on first need; null where Web Audio cannot carry it. */
function gainNode(el: HTMLMediaElement): GainNode | null {
  if (gains.has(el)) return gains.get(el)!;
  let node: GainNode | null = null;
  try {
    const src = el.currentSrc || el.src;
    const Context = window.AudioContext;
    if (Context && src && new URL(src, document.baseURI).origin === location.origin) {
      context = context || new Context();
      node = context.createGain();
      context.createMediaElementSource(el).connect(node);
      node.connect(context.destination);
    }
  } catch (error) {
    // No Web Audio for this element (no context, or its source already taken): it plays at its own volume, at most 1.
    logIgnored("no gain node for a media element; it plays at most at volume 1", error);
    node = null;
  }
  gains.set(el, node);
  return node;
}

/** Play mode: the context may only start after a user gesture; the player's play() is one. */
export function resumeAudio(): void {
  if (context && context.state === "suspended") context.resume().catch((error: unknown) => logIgnored("the audio context did not resume (no user gesture yet)", error));
}

/**
 * Gives `el` a `volume` that holds any gain in range (clamped as the mixer clamps it), starting at data-volume.
 * `play`: whether the gain is heard now (play mode) or only recorded for the node to sample (render mode).
 */
export function installVolume(el: HTMLMediaElement, play: boolean): void {
  const proto = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, "volume");
  if (!proto || !proto.set || Object.getOwnPropertyDescriptor(el, "volume")) return;
  const nativeSet = proto.set;
  const apply = (gain: number) => {
    if (!play) return;
    const node = gain > 1 || gains.get(el) ? gainNode(el) : null;
    if (node) {
      nativeSet.call(el, 1);
      node.gain.value = gain;
    } else nativeSet.call(el, Math.min(1, gain));
  };
  let gain = el.hasAttribute("data-volume") ? readVolume(el.getAttribute("data-volume")) : 1;
  Object.defineProperty(el, "volume", {
    configurable: true,
    get: () => gain,
    set: (value: unknown) => {
      gain = clampGain(Number(value));
      apply(gain);
    },
  });
  apply(gain);
}

/**
 * The gain of each element along the timeline, sampled every `step` seconds inside its window by seeking the
 * timelines (`seekTimelines`, events suppressed), never by playing: the same keyframes on every run. Each time is
 * sought once for all elements. An element whose gain never leaves its data-volume gets an empty list (the mixer
 * applies that constant).
 */
export function sampleVolumes(
  items: { el: Element; start: number; end: number }[],
  step: number,
  seekTimelines: (t: number) => void,
): VolumeKeyframe[][] {
  const tracks = items.map(({ el, start, end }) => ({
    media: Object.getOwnPropertyDescriptor(el, "volume") ? (el as HTMLMediaElement) : null,
    still: readVolume(el.getAttribute("data-volume")),
    from: Math.max(0, start),
    end,
    keyframes: [] as VolumeKeyframe[],
    moved: false,
  })).filter((track) => track.media && track.end >= track.from);
  if (tracks.length === 0) return items.map(() => []);
  const from = Math.min(...tracks.map((track) => track.from));
  const to = Math.max(...tracks.map((track) => track.end));
  // Whole steps from the first start, so rounding never adds a sample; each clip's own start and end are sampled too.
  const times = new Set<number>();
  const count = Math.ceil((to - from) / step - 1e-9);
  for (let i = 0; i <= count; i++) times.add(Number(Math.min(to, from + i * step).toFixed(6)));
  for (const track of tracks) {
    times.add(Number(track.from.toFixed(6)));
    times.add(Number(track.end.toFixed(6)));
  }
  for (const t of [...times].sort((a, b) => a - b)) {
    seekTimelines(t);
    for (const track of tracks) {
      if (t < track.from - 1e-9 || t > track.end + 1e-9) continue;
      const volume = clampGain(Number(track.media!.volume));
      if (Math.abs(volume - track.still) > 1e-4) track.moved = true;
      track.keyframes.push({ time: t, volume: Number(volume.toFixed(6)) });
    }
  }
  return items.map((_, i) => {
    const track = tracks.find((candidate) => candidate.media === items[i]!.el);
    return track && track.moved ? track.keyframes : [];
  });
}

/** Installs the volume property on every <audio>/<video> now and as each is added (parsed, inlined, scripted). */
export function watchMediaVolumes(play: boolean): void {
  const install = (node: Node) => {
    if (node.nodeType !== 1) return;
    const el = node as Element;
    if (el.nodeName === "AUDIO" || el.nodeName === "VIDEO") installVolume(el as HTMLMediaElement, play);
    else if (el.firstElementChild) Array.prototype.forEach.call(el.querySelectorAll("audio, video"), install);
  };
  install(document.documentElement);
  new MutationObserver((records) => {
    for (const record of records) Array.prototype.forEach.call(record.addedNodes, install);
  }).observe(document, { childList: true, subtree: true });
}
