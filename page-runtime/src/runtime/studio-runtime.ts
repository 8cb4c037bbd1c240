// Studio page runtime, bundled into the one script a composition's page loads first (render, snapshot or browser
// playback; build.ts). It inlines sub-compositions, seeks every registered timeline from one clock, shows clips
// only inside their time window, and in render mode swaps each <video> for an <img> showing frames ffmpeg extracted.
import type { CompositionInfo, MediaClip, RuntimeConfig, StudioApi } from "../../api.ts";
import { findingsSoFar, report } from "./findings.ts";
import { defineFrozenGlobal, errorText, num, page } from "./page-globals.ts";
import { addTextRendering, installPageStyles, type SwappedVideo } from "./page-styles.ts";
import { initSubCompositions, inlineSubCompositions, insertingFile, instantiateRootTemplate, mountedVariables } from "./sub-compositions.ts";
import { inWindow, makeClipClock, type ClipClock, type TimeWindow } from "./clip-clock.ts";
import { mediaSrc, placeRootClips, setClipShown, type Clip } from "./timing.ts";
import { exposeRootVariables, installHyperframes } from "./variables.ts";
import { describeStartProblem, readMediaOffset } from "../../../core/composition/clip-start.ts";
import { readFadeSeconds, readVolume } from "../../../core/composition/audio-gain.ts";
import { MAX_TREATMENT_CHARS } from "../../../core/composition/audio-fx-chain.ts";
import { readPlaybackRate } from "../../../core/composition/playback-rate.ts";
import { parseAutomation } from "../../../core/composition/audio-automation.ts";
import { rateAt, sourceSecondsAt, type RatePoint } from "../../../core/composition/speed-ramp.ts";
import { installVolume, resumeAudio, sampleVolumes, watchMediaVolumes } from "./media-volume.ts";
import { exposeOwnVariables } from "./own-variables.ts";
import { watchStillFrames } from "./still-frame.ts";
import { watchFrameFingerprints } from "./frame-fingerprint.ts";
import { reportUnsupportedFeatures } from "./unsupported-features.ts";
import { installColorGrading, type ColorGrading } from "./color-grading.ts";
import { twinVideoSelectors } from "./video-selectors.ts";
import { logIgnored } from "./log-ignored.ts";

interface VideoItem {
  el: HTMLElement;
  index: number;
  window: TimeWindow;
  mediaStart: number;
  /** Source seconds per timeline second (data-playback-rate). */
  rate: number;
  /** A speed ramp (data-automation's rate lane), which replaces `rate`: the node extracts its frames at speed 1. */
  ramp: RatePoint[] | null;
  loop: boolean;
}
interface MediaItem {
  el: HTMLMediaElement;
  window: TimeWindow;
  mediaStart: number;
  rate: number;
  ramp: RatePoint[] | null;
}

/** Seconds into its source a media element starts (data-playback-start, else data-media-start). */
const mediaOffset = (el: Element) => readMediaOffset((name) => el.getAttribute(name));
/** Its constant speed (data-playback-rate, core/composition/playback-rate.ts); a render's swapped <img> keeps it. */
const mediaRate = (el: Element) => readPlaybackRate(el.getAttribute("data-playback-rate"));
/** Its speed ramp, data-automation's rate lane (core/composition/speed-ramp.ts), or null. */
function mediaRamp(el: Element): RatePoint[] | null {
  const raw = el.getAttribute("data-automation");
  return raw === null ? null : parseAutomation(raw, null).rate;
}

function studioRuntime(): void {
  if (page.__studio) return;
  const script = document.currentScript as HTMLScriptElement | null;
  const renderMode = !!(script && script.dataset && script.dataset["mode"] === "render");
  const gsapBase = (script && script.dataset && script.dataset["gsapBase"]) || null;
  let playing = false;
  page.__timelines = page.__timelines || {};

  const swapped: SwappedVideo[] = [];
  const config: RuntimeConfig = { fps: [30, 1], videoFrameUrl: null, videoFrames: [] };
  let readyPromise: Promise<void> | null = null;
  const state: { root: HTMLElement | null; clock: ClipClock | null; hosts: Record<string, Element>; clips: Clip[]; videos: VideoItem[]; media: MediaItem[] } = {
    root: null, clock: null, hosts: {}, clips: [], videos: [], media: [],
  };

  addTextRendering();
  installPageStyles(renderMode, swapped);
  // Render pages only (frame reuse), and before any composition script runs, so every timer, frame callback and
  // DOM change it makes is seen. Playback pages keep the browser's own timers untouched.
  const stillFrames = renderMode ? watchStillFrames((script && script.src) || "", gsapBase) : null;
  // Incremental re-render: likewise before any composition script, so every shadow root is reachable.
  const fingerprints = renderMode ? watchFrameFingerprints() : null;
  // Before any composition script runs, so a tween on an element's volume finds the gain-keeping property.
  watchMediaVolumes(!renderMode);

  const rootFile = decodeURIComponent(location.pathname).replace(/^\/+/, "") || "index.html";
  // Errors outside a scoped sub-composition script (the root file's own scripts, or later callbacks).
  // A sub-composition's scripts carry its path as their sourceURL, so a later callback's error (or a syntax error)
  // still names that file.
  window.addEventListener("error", (event) => {
    const file = insertingFile() || (event.filename && !/^[a-z][a-z0-9+.-]*:/i.test(event.filename) ? event.filename : rootFile);
    // A script that does not parse is reported as thrown by the insertBefore that added it: say only the cause.
    const cause = errorText(event.error || event.message).replace("Failed to execute 'insertBefore' on 'Node': ", "");
    report("page-error", file, "script error in " + file + ": " + cause);
  });
  const hyperframes = installHyperframes();
  initSubCompositions({ gsapBase, rootFile, hyperframes });

  const root = (): HTMLElement => state.root!;
  const timelines = () => page.__timelines!;

  // data-color-grading's pictures (color-grading.ts), read once the composition is in place.
  let grading: ColorGrading | null = null;

  async function prepare(): Promise<void> {
    await instantiateRootTemplate();
    exposeRootVariables();
    await inlineSubCompositions();
    // After every file's scripts, as HyperFrames does: each composition's own values under --<id as written>.
    exposeOwnVariables(mountedVariables(), hyperframes);
    state.root = document.querySelector<HTMLElement>("[data-composition-id]");
    if (!state.root) throw new Error("no element with data-composition-id: not a composition");
    // Swapped videos keep their source, read now that the parser has added any <source> children, and the styles
    // that name the video element (every file's are in by now).
    for (let i = 0; i < swapped.length; i++) {
      const src = mediaSrc(swapped[i]!.original);
      if (src) swapped[i]!.img.setAttribute("data-studio-video-src", src);
    }
    if (renderMode) twinVideoSelectors();
    const hosts: Record<string, Element> = {};
    const hostEls = document.querySelectorAll("[data-composition-id]");
    for (let h = 0; h < hostEls.length; h++) {
      const hid = hostEls[h]!.getAttribute("data-composition-id")!;
      if (hostEls[h] !== state.root && !hosts[hid]) hosts[hid] = hostEls[h]!;
    }
    state.hosts = hosts;
    placeRootClips(state.root);
    const rootEl = state.root;
    // Windows are read once the files' scripts have run: a host without data-duration lasts as long as its timeline.
    // The project file an element comes from: its sub-composition's, else the page's.
    const fileOf = (el: Element) => (el.closest("[data-studio-file]") || rootEl).getAttribute("data-studio-file") || rootFile;
    const clock = (state.clock = makeClipClock(rootEl, timelines, (el, problem) => {
      report("start-unresolved", fileOf(el), describeStartProblem(problem), el.id ? { selector: "#" + el.id } : {});
    }));
    reportUnsupportedFeatures(fileOf);
    grading = installColorGrading(fileOf);
    state.clips = (Array.prototype.filter.call(document.querySelectorAll("[data-start]"), (el: Element) => el !== rootEl && el.nodeName !== "AUDIO") as HTMLElement[])
      .map((el) => ({ el, window: clock.shownWindow(el), collapses: null, savedDisplay: null }));
    const videoEls = renderMode ? document.querySelectorAll<HTMLElement>("img[data-studio-video]") : document.querySelectorAll<HTMLElement>("video");
    state.videos = Array.prototype.map.call(videoEls, (el: HTMLElement, index: number) => ({
      el, index, window: clock.mediaWindow(el), mediaStart: mediaOffset(el), rate: mediaRate(el), ramp: mediaRamp(el), loop: el.hasAttribute("loop"),
    })) as VideoItem[];
    // Any media element the watch missed gets the gain-keeping volume too (media-volume.ts).
    Array.prototype.forEach.call(document.querySelectorAll("audio, video"), (el: HTMLMediaElement) => installVolume(el, !renderMode));
    // Play mode: every <audio> and <video> follows the one clock (render mode mixes audio with ffmpeg instead).
    state.media = renderMode ? [] : (Array.prototype.map.call(document.querySelectorAll<HTMLMediaElement>("audio, video"), (el: HTMLMediaElement) => {
      el.preload = "auto";
      const rate = mediaRate(el);
      // Sound keeps its pitch at any speed, as in the render (atempo).
      el.preservesPitch = true;
      el.playbackRate = rate;
      return { el, window: clock.mediaWindow(el), mediaStart: mediaOffset(el), rate, ramp: mediaRamp(el) };
    }) as MediaItem[]);
    for (const id in timelines()) {
      const tl = timelines()[id];
      if (tl && typeof tl.pause === "function") tl.pause();
    }
    if (document.fonts && document.fonts.ready) await document.fonts.ready;
    await Promise.all(Array.prototype.map.call(document.images, (img: HTMLImageElement) => (img.getAttribute("src") ? img.decode().catch((error: unknown) => logIgnored("an image does not decode; it shows as the browser draws it", error)) : null)));
  }

  function ready(): Promise<void> {
    if (!readyPromise) {
      readyPromise = new Promise<void>((resolve) => {
        if (document.readyState === "complete") resolve();
        else window.addEventListener("load", () => resolve(), { once: true });
      }).then(prepare);
    }
    return readyPromise;
  }

  function duration(): number {
    const own = num(root().getAttribute("data-duration"), NaN);
    if (Number.isFinite(own)) return own;
    const tl = timelines()[root().getAttribute("data-composition-id")!];
    return tl && typeof tl.duration === "function" ? tl.duration() : 0;
  }

  /** The elements whose sound is on the timeline, in the order info() lists them. */
  function soundElements(): { el: Element; kind: "audio" | "video"; src: string }[] {
    const found: { el: Element; kind: "audio" | "video"; src: string }[] = [];
    const push = (el: Element, kind: "audio" | "video") => {
      const src = kind === "video" && renderMode ? el.getAttribute("data-studio-video-src") : mediaSrc(el);
      if (src) found.push({ el, kind, src });
    };
    Array.prototype.forEach.call(document.querySelectorAll("audio"), (el: Element) => {
      if (!el.hasAttribute("muted") && !el.hasAttribute("data-studio-hidden-muted")) push(el, "audio");
    });
    state.videos.forEach((v) => {
      const declared = v.el.getAttribute("data-has-audio");
      const hasAudio = declared !== null ? declared !== "false" : !v.el.hasAttribute("muted");
      if (hasAudio) push(v.el, "video");
    });
    return found;
  }

  /** A sound's data-fx-chain and data-automation as written, for the node to mix (one too long to carry is left out). */
  function treatments(el: Element): { fxChain?: string; automation?: string } {
    const fxChain = el.getAttribute("data-fx-chain");
    const automation = el.getAttribute("data-automation");
    const fits = (value: string | null): value is string => value !== null && value.length <= MAX_TREATMENT_CHARS;
    return { ...(fits(fxChain) ? { fxChain } : {}), ...(fits(automation) ? { automation } : {}) };
  }

  /** What the renderer needs to know: size, duration, and every sound on the timeline. */
  function info(): CompositionInfo {
    const audio: MediaClip[] = soundElements().map(({ el, kind, src }) => {
      const w = state.clock!.mediaWindow(el);
      const raw = el.getAttribute("data-volume");
      return {
        kind, src, start: w.start, duration: Number.isFinite(w.end) ? w.end - w.start : null,
        mediaStart: mediaOffset(el), playbackRate: mediaRate(el), volume: raw !== null ? readVolume(raw) : readVolume(el.getAttribute("volume")),
        fadeIn: readFadeSeconds(el.getAttribute("data-fade-in")), fadeOut: readFadeSeconds(el.getAttribute("data-fade-out")),
        ...treatments(el),
      };
    });
    return {
      compositionId: root().getAttribute("data-composition-id")!,
      width: num(root().getAttribute("data-width"), 1920),
      height: num(root().getAttribute("data-height"), 1080),
      duration: duration(),
      fps: root().getAttribute("data-fps"),
      timelines: Object.keys(timelines()),
      findings: findingsSoFar(),
      audio,
      videos: state.videos.map((v) => {
        // data-automation as written: a speed ramp decides which frames of its file the node extracts.
        const { automation } = treatments(v.el);
        return {
          index: v.index,
          src: renderMode ? v.el.getAttribute("data-studio-video-src") : mediaSrc(v.el),
          start: v.window.start,
          duration: Number.isFinite(v.window.end) ? v.window.end - v.window.start : null,
          mediaStart: v.mediaStart,
          playbackRate: v.rate,
          loop: v.loop,
          ...(automation !== undefined ? { automation } : {}),
        };
      }),
    };
  }

  function configure(options: Partial<RuntimeConfig>): void {
    Object.assign(config, options);
  }

  // The time timeline `id` is sought to at global time t: a sub-composition's runs on its host's clock
  // (clip-clock.ts), not clamped to the host's window (its clip hides it); the root's is t. Frame reuse asks it too.
  function localTime(id: string, t: number): number {
    const host = id === root().getAttribute("data-composition-id") ? null : state.hosts[id];
    return host ? state.clock!.localTime(host, id, t) : t;
  }

  // Render mode: the extracted frame each video shows at t (null where none is set).
  function videoFrameAt(video: VideoItem, t: number): string | null {
    if (!config.videoFrameUrl) return null;
    const source = config.videoFrames[video.index];
    if (!source || !(source.count > 0)) return null;
    // Frames are numbered on the file's clock from the in-point (extracted at speed 1): the clip shows the file at
    // its rate × clip time, or along a speed ramp at the ramp's integral of its speed, as HyperFrames' lookup does.
    const local = Math.max(0, t - video.window.start);
    let clipTime = video.ramp ? sourceSecondsAt(video.ramp, local) : local * video.rate;
    // A looping video starts its file over each cycle, as HyperFrames' frame lookup does; any other holds its last frame.
    const cycle = source.loopSeconds;
    if (cycle && cycle > 0 && clipTime >= cycle) clipTime %= cycle;
    const frame = Math.min(source.count, Math.floor((clipTime * config.fps[0]) / config.fps[1] + 1e-6) + 1);
    return config.videoFrameUrl.replace("{folder}", String(source.folder)).replace("{frame}", String(frame));
  }

  // Every registered timeline to global time t; `quiet` suppresses their callbacks (volume sampling).
  function seekTimelines(t: number, quiet: boolean): void {
    const rootId = root().getAttribute("data-composition-id");
    for (const id in timelines()) {
      const tl = timelines()[id];
      if (!tl || typeof tl.seek !== "function") continue;
      const host = id === rootId ? null : state.hosts[id];
      const local = localTime(id, t);
      tl.pause();
      try {
        tl.seek(local, quiet);
      } catch (error) {
        // A callback of the timeline threw (onUpdate, .call()): a finding naming the file, once per cause, and the
        // other timelines still seek. The node reads these after capture (late findings).
        const file = (host && host.getAttribute("data-studio-file")) || rootFile;
        report("page-error", file, "script error in " + file + " while seeking timeline \"" + id + "\": " + errorText(error), { time: t });
      }
    }
  }

  // The gain of every sound info() lists, sampled every `step` seconds inside its window, then back to 0.
  function volumeAutomation(step: number): ReturnType<StudioApi["volumeAutomation"]> {
    const end = duration();
    const items = soundElements().map(({ el }) => {
      const w = state.clock!.mediaWindow(el);
      return { el, start: w.start, end: Math.min(end, w.end) };
    });
    const sampled = sampleVolumes(items, Math.max(1 / 240, step), (t) => seekTimelines(t, true));
    seekTimelines(0, true);
    return sampled;
  }

  async function seek(t: number): Promise<void> {
    seekTimelines(t, false);
    for (let c = 0; c < state.clips.length; c++) {
      const clip = state.clips[c]!;
      setClipShown(clip, inWindow(clip.window, t));
    }
    const pending: Promise<void>[] = [];
    for (let v = 0; v < state.videos.length; v++) {
      const video = state.videos[v]!;
      if (renderMode) {
        const url = videoFrameAt(video, t);
        if (url === null) continue;
        if (grading && grading.grades(video.el)) pending.push(grading.showFrame(video.el as HTMLImageElement, url));
        else if (video.el.getAttribute("src") !== url) {
          video.el.setAttribute("src", url);
          pending.push((video.el as HTMLImageElement).decode().catch((error: unknown) => logIgnored("a video frame does not decode; the capture draws what the browser has", error)));
        }
      }
    }
    if (!renderMode) syncMedia(t);
    if (grading) pending.push(grading.ready.then(grading.refresh));
    if (pending.length) await Promise.all(pending);
  }

  // Where in its file a media element is, `local` seconds into its window: at its rate (or along its speed ramp)
  // from its in-point, and for a looping <video> (once its length is known) over again from the in-point each
  // cycle, as a render shows it. (Renders do not loop sound, HyperFrames' neither.)
  function mediaTime(item: MediaItem, local: number): number {
    const el = item.el;
    const loops = el.loop && el.nodeName === "VIDEO" && Number.isFinite(el.duration) && el.duration > item.mediaStart;
    if (item.ramp) {
      // A ramped loop starts over once its source's cycle has played, as HyperFrames' frame lookup does.
      const played = sourceSecondsAt(item.ramp, local);
      return item.mediaStart + (loops ? played % (el.duration - item.mediaStart) : played);
    }
    const cycle = loops ? (el.duration - item.mediaStart) / item.rate : 0;
    return item.mediaStart + (cycle > 0 ? local % cycle : local) * item.rate;
  }

  // Play mode: media inside its window plays along (corrected when it drifts); outside it, or when paused, it
  // rests at the frame the clock shows.
  const MAX_DRIFT = 0.25;
  function syncMedia(t: number): void {
    for (let m = 0; m < state.media.length; m++) {
      const item = state.media[m]!;
      const el = item.el;
      const inside = t >= item.window.start && t < item.window.end;
      const local = Math.max(0, t - item.window.start);
      const target = mediaTime(item, local);
      // Along a speed ramp the element plays at the ramp's speed of the moment (pitch kept), so it drifts little
      // between the clock's ticks.
      if (item.ramp) {
        const speed = rateAt(item.ramp, local);
        if (Math.abs(el.playbackRate - speed) > 0.005 * speed) el.playbackRate = speed;
      }
      if (playing && inside) {
        if (el.readyState >= 1 && Math.abs(el.currentTime - target) > MAX_DRIFT) el.currentTime = target;
        if (el.paused) el.play().catch((error: unknown) => logIgnored("a media element may not play yet (autoplay policy)", error));
      } else {
        if (!el.paused) el.pause();
        if (el.readyState >= 1 && Math.abs(el.currentTime - target) > 0.01) el.currentTime = target;
      }
    }
  }

  function setPlaying(value: boolean): void {
    playing = !!value;
    if (playing) resumeAudio();
    if (!playing) for (let m = 0; m < state.media.length; m++) state.media[m]!.el.pause();
  }

  // Seeks like seek(t), then tells whether the picture can differ from the one at `from` (frame reuse).
  async function seekFrame(t: number, from: number | null): Promise<string | null> {
    await seek(t);
    if (!stillFrames) return "not a render page";
    return stillFrames.change(from, t, {
      timelines: timelines(), localTime, clips: state.clips,
      videoFrames: (at) => (renderMode ? state.videos.map((video) => videoFrameAt(video, at)) : []),
    });
  }

  // A walk that throws (a composition that broke a built-in it uses) is a refusal, never a failed render.
  const frameFingerprint = () => {
    if (!fingerprints) return "!not a render page";
    try {
      return fingerprints.frame();
    } catch (error) {
      logIgnored("the frame's fingerprint could not be taken; the frame is rendered again", error);
      return "!the fingerprint failed: " + errorText(error).slice(0, 120);
    }
  };
  const loadKey = () => {
    const version = page.gsap && typeof page.gsap["version"] === "string" ? page.gsap["version"] : null;
    return fingerprints ? fingerprints.loadKey(version) : "!not a render page";
  };
  const api: StudioApi = { ready, info, seek, seekFrame, frameFingerprint, loadKey, volumeAutomation, findings: findingsSoFar, configure, setPlaying, renderMode };
  defineFrozenGlobal("__studio", api);
}

studioRuntime();
