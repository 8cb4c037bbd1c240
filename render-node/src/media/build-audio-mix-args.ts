// The ffmpeg filter graph that places every audio clip on the timeline and mixes them. Pure.
import { clampGain, fitFades } from "../../../core/composition/audio-gain.ts";
import { atempoFactors } from "../../../core/composition/playback-rate.ts";
import { rampSlices, sourceSecondsAt, type RatePoint } from "../../../core/composition/speed-ramp.ts";
import { envelopeFilter, type VolumePoint } from "../../../core/composition/volume-envelope.ts";
import type { AudioEffect } from "../../../core/composition/audio-fx-chain.ts";
import { FX_SAMPLE_RATE, fxFilters, fxTailSeconds } from "../../../core/composition/audio-fx-filters.ts";

export interface AudioClip {
  /** File path (or URL) ffmpeg reads. */
  file: string;
  /** Where the clip starts on the composition timeline, in seconds. */
  start: number;
  /** How long it plays, in seconds; undefined plays to the end of the file (or of the video). */
  duration: number | undefined;
  /** Offset into the file, in seconds. */
  mediaStart: number;
  /** Source seconds per timeline second (data-playback-rate), pitch kept; undefined is 1. */
  playbackRate?: number | undefined;
  /** A speed ramp (data-automation's rate lane), which replaces playbackRate; pitch kept. */
  rateLane?: RatePoint[] | undefined;
  /** Gain, 0 up to +12 dB (clamped here as HyperFrames' mixer clamps it). */
  volume: number;
  /** The gain over time (times from the clip's start), when a script changes it; replaces `volume` throughout. */
  volumeKeyframes?: VolumePoint[] | undefined;
  /** Linear fades at the clip's edges, seconds (data-fade-in, data-fade-out). */
  fadeIn?: number | undefined;
  fadeOut?: number | undefined;
  /** Channels of the source, when known: a mono source is copied to both channels at full level. */
  channels?: number | undefined;
  /** data-fx-chain's rendered effects, run on the clip's sound before its gain; their ring sounds past its end. */
  effects?: AudioEffect[] | undefined;
}

export interface AudioMix {
  inputs: string[];
  filter: string;
  outputLabel: string;
}

const seconds = (value: number): string => Number(value.toFixed(6)).toString();

/** atempo filters that make `rate`, each with its comma after it; empty for 1. */
const tempoFilters = (rate: number): string => atempoFactors(rate).map((factor) => `atempo=${seconds(factor)},`).join("");

/**
 * A ramped clip's sound on its own clock, as HyperFrames' mixer plays a speed ramp: the source from the in-point
 * for as long as the ramp plays in `length` timeline seconds, split into slices of about a quarter second
 * (rampSlices), each stretched to its mean speed (pitch kept) and held to its exact length, then joined again.
 * `input` is the clip's stream, `label` what the joined sound is called; returns the graph's parts.
 */
function rampParts(input: string, label: string, lane: RatePoint[], mediaStart: number, length: number): string[] {
  const slices = rampSlices(lane, length);
  const names = slices.map((_, k) => `${label}s${k}`);
  const parts = [
    `${input}atrim=start=${seconds(mediaStart)}:end=${seconds(mediaStart + sourceSecondsAt(lane, length))},asetpts=PTS-STARTPTS,` +
      `asplit=${slices.length}${names.map((n) => `[${n}]`).join("")}`,
  ];
  slices.forEach((slice, k) => {
    parts.push(
      `[${names[k]}]atrim=start=${seconds(slice.from)}:end=${seconds(slice.to)},asetpts=PTS-STARTPTS,` +
        `${tempoFilters((slice.to - slice.from) / slice.seconds)}apad,asetpts=N/SR/TB,atrim=end=${seconds(slice.seconds)}[${names[k]}t]`,
    );
  });
  parts.push(`${names.map((n) => `[${n}t]`).join("")}concat=n=${slices.length}:v=0:a=1[${label}]`);
  return parts;
}

/**
 * The clip's effects as HyperFrames runs them: on the trimmed clip followed by silence as long as the chain rings
 * (a delay's echoes), the whole then cut to the clip's length plus that ring. Empty without effects.
 */
function effectFilters(clip: AudioClip, cut: number): string {
  const effects = clip.effects ?? [];
  if (effects.length === 0) return "";
  const tail = fxTailSeconds(effects);
  const pad = tail > 0 ? `apad=pad_len=${Math.round(tail * FX_SAMPLE_RATE)},` : "";
  const end = clip.duration !== undefined && tail > 0 ? `,atrim=duration=${seconds(clip.duration - cut + tail)}` : "";
  return `${pad}${fxFilters(effects).join(",")}${end},`;
}

/**
 * The clip's gain (constant or its envelope), then its fades, all on the clip's own clock (t = 0 where it starts
 * sounding). A clip that starts before 0 has lost its head: the envelope and fade-in count from its real start.
 */
function gainFilters(clip: AudioClip): string {
  const cut = Math.max(0, -clip.start);
  const points = (clip.volumeKeyframes ?? [])
    .filter((p) => Number.isFinite(p.time) && Number.isFinite(p.volume))
    .map((p) => ({ time: Math.max(0, p.time), volume: clampGain(p.volume) }));
  // An envelope's gain is evaluated once per audio frame: frames of 256 samples (5 ms) follow it closely, as
  // HyperFrames' gain applied sample by sample does (ffmpeg's frames of 1024 or more lagged a swell by 20 ms).
  const stages = [points.length > 0 ? `asetnsamples=n=256:p=0,${envelopeFilter(points, cut)}` : `volume=${seconds(clampGain(clip.volume))}`];
  const { fadeIn, fadeOut } = fitFades(Math.max(0, clip.fadeIn ?? 0), Math.max(0, clip.fadeOut ?? 0), clip.duration ?? null);
  // (afade cannot start before 0: a clip cut at its head fades in over what is left of its fade.)
  if (fadeIn > cut) stages.push(`afade=t=in:st=0:d=${seconds(fadeIn - cut)}`);
  if (fadeOut > 0 && clip.duration !== undefined) stages.push(`afade=t=out:st=${seconds(clip.duration - cut - fadeOut)}:d=${seconds(fadeOut)}`);
  return stages.join(",");
}

/**
 * Mixes clips into one 48 kHz stereo track exactly `totalSeconds` long. The first input of the mix is silence of
 * the video's length and every clip is padded forever, so amix (duration=first) always has every input active and
 * divides by the same count, which the final volume undoes: each clip keeps its own level on any ffmpeg version.
 * The clips are the command's only inputs, numbered from 0 (the track is mixed on its own, during the capture).
 *
 * A range render (from/to) gives `fromSeconds`: the mix is the full render's up to `totalSeconds` (the range's end
 * on the composition's clock), then its first `fromSeconds` are cut. So every clip starts, fades and follows its
 * envelope exactly as in the full mix, whatever part of it the range holds, and the samples are the full mix's.
 */
export function buildAudioMixArgs(clips: AudioClip[], totalSeconds: number, fromSeconds = 0): AudioMix | null {
  const playable = clips.filter((clip) =>
    clip.start < totalSeconds &&
    (clip.duration === undefined || (clip.duration > 0 && clip.start + clip.duration + fxTailSeconds(clip.effects ?? []) > fromSeconds)));
  if (playable.length === 0) return null;
  const inputs: string[] = [];
  const parts = [`anullsrc=r=48000:cl=stereo,atrim=duration=${seconds(totalSeconds)}[base]`];
  const labels = ["[base]"];
  playable.forEach((clip, i) => {
    inputs.push("-i", clip.file);
    const delayMs = Math.round(Math.max(0, clip.start) * 1000);
    // The trim is in the file's seconds, the rest on the timeline's: at rate r a timeline second is r of the file's,
    // and atempo (pitch kept) makes them timeline seconds again before the gains, which count on the clip's clock.
    const rate = clip.playbackRate ?? 1;
    const cut = Math.max(0, -clip.start);
    // ffmpeg's own mono-to-stereo up-mix puts the channel at -3 dB on each side; HyperFrames plays mono at full
    // level on both, so a mono clip is copied to both channels first.
    const upmix = clip.channels === 1 ? "pan=stereo|c0=c0|c1=c0," : "";
    const source = `[${i}:a]${upmix}aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo,`;
    const after = `${effectFilters(clip, cut)}${gainFilters(clip)},adelay=${delayMs}|${delayMs},apad[a${i}]`;
    if (clip.rateLane && clip.rateLane.length > 0) {
      // The whole ramp on the clip's clock (to the composition's end when it has no duration), then, for a clip
      // that starts before 0, its head cut.
      const length = clip.duration ?? Math.max(0, totalSeconds - clip.start);
      parts.push(...rampParts(source, `r${i}`, clip.rateLane, clip.mediaStart, length));
      const head = cut > 0 ? `atrim=start=${seconds(cut)},asetpts=PTS-STARTPTS,` : "";
      parts.push(`[r${i}]${head}${after}`);
    } else {
      // A clip that starts before 0 loses its head instead of being delayed.
      const skip = clip.mediaStart + cut * rate;
      const trim = clip.duration === undefined
        ? `atrim=start=${seconds(skip)}`
        : `atrim=start=${seconds(skip)}:duration=${seconds((clip.duration - cut) * rate)}`;
      parts.push(`${source}${trim},asetpts=PTS-STARTPTS,${tempoFilters(rate)}${after}`);
    }
    labels.push(`[a${i}]`);
  });
  const count = labels.length;
  const cut = fromSeconds > 0 ? `,atrim=start=${seconds(fromSeconds)},asetpts=PTS-STARTPTS` : "";
  parts.push(`${labels.join("")}amix=inputs=${count}:duration=first:dropout_transition=0,volume=${count}${cut}[aout]`);
  return { inputs, filter: parts.join(";"), outputLabel: "aout" };
}

/** The audio track's file name in the scratch folder: a container that holds the format's audio codec. */
export function audioTrackName(format: "mp4" | "webm" | "mov" | "png-sequence"): string {
  // Ogg, not WebM, for Opus: copied from Ogg the join's output is byte for byte the one-pass encode's (from WebM
  // the video started 7 ms earlier and the container's duration grew 13 ms). A png-sequence's zip keeps the name.
  return format === "webm" ? "audio.opus" : format === "mov" ? "audio.mov" : "audio.m4a";
}

/**
 * The one ffmpeg run that mixes the clips into the track file, encoded with the output's own audio codec
 * (`codec`, from the encoder table), so the join copies it in without touching it. Inputs start at 0: no video.
 */
export function buildAudioTrackArgs(mix: AudioMix, codec: readonly string[], output: string): string[] {
  return [
    "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
    ...mix.inputs, "-filter_complex", mix.filter, "-map", `[${mix.outputLabel}]`, ...codec, output,
  ];
}
