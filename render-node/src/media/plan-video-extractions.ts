// Which frames of which files a render decodes for its <video> clips. A composition is a hostile program: a clip's
// own data-duration (or loop) says nothing about what the render will show, so each clip's frames are limited to
// what the composition's window (a segment's, for a segment job) can show of it, and clips that show the same file
// from the same in-point share one extraction (one folder, one ffmpeg run per stretch of frames): its frame k is the
// same frame of the file for each of them, looping or not (a loop only starts over at its cycle's end).
// Folders are numbered by the node (the extraction's place in this plan), never by a value the page reported.
// Frames are extracted at speed 1, numbered on the file's clock from the in-point, whatever the clip's speed: the page
// shows the frame at its data-playback-rate × clip time, or on a speed ramp (data-automation's rate lane) at the
// ramp's integral (core/composition/speed-ramp.ts), as HyperFrames' frame lookup does. A clip's spans are the file's
// stretch the window's times map to, so clips of one file from one in-point share frames at any speeds.
// Pure: extract-video-frames.ts runs ffmpeg on the plan.
import { sourceSecondsAt, type RatePoint } from "../../../core/composition/speed-ramp.ts";
import type { Fps } from "../plan/resolve-render.ts";

/** Clip frames first..last (1-based, as the page numbers them: frame k is the clip's instant (k-1)/fps), inclusive. */
export interface FrameSpan {
  first: number;
  last: number;
}

/** One <video> to plan: the page's timing (checked numbers) and the file the node resolved for it. */
export interface ClipToPlan {
  /** The project file, as the node resolved it. */
  file: string;
  /** Project-relative path, for lines and messages. */
  name: string;
  start: number;
  duration: number | null;
  mediaStart: number;
  /** File seconds per clip second (data-playback-rate); a speed ramp replaces it. */
  playbackRate: number;
  /** The speed ramp, if any (data-automation's rate lane). */
  ramp?: RatePoint[] | null | undefined;
  /** A looping video's cycle (file seconds from the in-point) when it loops and its length is known, else null. */
  loopSeconds: number | null;
}

/** One folder of frames: a file from one in-point at speed 1, the spans of its frames its clips need. */
export interface PlannedExtraction {
  /** The folder's name under the render's video-frames folder: this extraction's place in the plan. */
  folder: number;
  file: string;
  name: string;
  mediaStart: number;
  /** Sorted, disjoint and not adjacent: each is one ffmpeg run. */
  spans: FrameSpan[];
  /** Positions (in the page's list of videos) of the clips that show it. */
  clips: number[];
  /**
   * The file seconds from the in-point ffmpeg's output may cover (-t: the most any of its clips shows, to its
   * duration's end, else to the composition's end); the spans, not this, bound what is written.
   */
  seconds: number;
}

export interface ExtractionPlan {
  extractions: PlannedExtraction[];
  /** By clip position: the extraction it shows and the spans it needs, or null when the window shows none of it. */
  clips: ({ extraction: number; spans: FrameSpan[]; loopSeconds: number | null } | null)[];
}

/** The file frame the page shows `fileTime` seconds from the in-point (page-runtime's videoFrameAt, before its clamp). */
export function frameOf(fileTime: number, fps: Fps): number {
  return Math.floor((fileTime * fps.num) / fps.den + 1e-6) + 1;
}

/** File seconds from the in-point at `local` seconds into a clip: along its ramp, else at its constant rate. */
export function fileSecondsAt(clip: { playbackRate: number; ramp?: RatePoint[] | null | undefined }, local: number): number {
  return clip.ramp ? sourceSecondsAt(clip.ramp, local) : local * clip.playbackRate;
}

/**
 * The clip frames a clip shows over composition times [from, to] (the first and last frame the window seeks), or
 * none. The page asks for frame 1 before a clip starts and holds its last frame after it ends, so a clip that
 * starts inside the window needs frame 1, and one that ended before the window needs nothing. A looping clip's
 * frames are those of one cycle the window reaches: all of it when the window spans a cycle, else the stretch it
 * shows (two stretches when it wraps past the cycle's end).
 */
export function clipFrameSpans(
  clip: { start: number; duration: number | null; loopSeconds: number | null; playbackRate: number; ramp?: RatePoint[] | null },
  window: { from: number; to: number },
  fps: Fps,
): FrameSpan[] {
  if (window.to - clip.start < 0) return [];
  if (clip.duration !== null && window.from > clip.start + clip.duration) return [];
  // Times on the frames' clock, the file's (the map only grows).
  const onFrames = (local: number) => fileSecondsAt(clip, local);
  const a = onFrames(Math.max(0, window.from - clip.start));
  const end = clip.duration === null ? window.to : Math.min(window.to, clip.start + clip.duration);
  const b = Math.max(a, onFrames(end - clip.start));
  const cycle = clip.loopSeconds;
  if (cycle === null || !(cycle > 0)) return [{ first: Math.max(1, frameOf(a, fps)), last: frameOf(b, fps) }];
  // The page starts a loop over as `if (local >= cycle) local %= cycle`: the same arithmetic on the same values.
  const lastOfCycle = frameOf(cycle, fps);
  if (b - a >= cycle) return [{ first: 1, last: lastOfCycle }];
  const inA = a >= cycle ? a % cycle : a;
  const inB = b >= cycle ? b % cycle : b;
  if (inB >= inA) return [{ first: Math.max(1, frameOf(inA, fps)), last: Math.min(lastOfCycle, frameOf(inB, fps)) }];
  return mergeSpans([{ first: 1, last: frameOf(inB, fps) }, { first: Math.max(1, frameOf(inA, fps)), last: lastOfCycle }]);
}

/** Spans sorted, with overlapping and adjacent ones made one. */
export function mergeSpans(spans: FrameSpan[]): FrameSpan[] {
  const sorted = spans.filter((s) => s.last >= s.first).map((s) => ({ ...s })).sort((x, y) => x.first - y.first);
  const merged: FrameSpan[] = [];
  for (const span of sorted) {
    const previous = merged[merged.length - 1];
    if (previous && span.first <= previous.last + 1) previous.last = Math.max(previous.last, span.last);
    else merged.push(span);
  }
  return merged;
}

/** How many frames the spans hold. */
export function spanFrames(spans: FrameSpan[]): number {
  return spans.reduce((sum, s) => sum + (s.last - s.first + 1), 0);
}

/**
 * Plans the extractions: by clip position (null for a clip the node could not resolve), which folder it shows and
 * which frames of it; one extraction per file, rate and in-point, over the union of its clips' spans.
 */
export function planVideoExtractions(
  clips: (ClipToPlan | null)[],
  window: { from: number; to: number },
  fps: Fps,
  totalSeconds: number,
): ExtractionPlan {
  const extractions: PlannedExtraction[] = [];
  const byKey = new Map<string, PlannedExtraction>();
  const planned: ExtractionPlan["clips"] = [];
  clips.forEach((clip, position) => {
    planned[position] = null;
    if (!clip) return;
    const spans = clipFrameSpans(clip, window, fps);
    if (spans.length === 0) return;
    // The values that decide which file frame each folder frame is; a JSON array keeps the parts apart.
    const key = JSON.stringify([clip.file, clip.mediaStart]);
    const shown = clip.duration ?? Math.max(0, totalSeconds - clip.start);
    const seconds = fileSecondsAt(clip, shown);
    let extraction = byKey.get(key);
    if (!extraction) {
      extraction = {
        folder: extractions.length, file: clip.file, name: clip.name, mediaStart: clip.mediaStart,
        spans: [], clips: [], seconds,
      };
      extractions.push(extraction);
      byKey.set(key, extraction);
    }
    extraction.spans = mergeSpans([...extraction.spans, ...spans]);
    extraction.clips.push(position);
    extraction.seconds = Math.max(extraction.seconds, seconds);
    planned[position] = { extraction: extraction.folder, spans, loopSeconds: clip.loopSeconds };
  });
  return { extractions, clips: planned };
}

/**
 * The frames a file has from its in-point (the frames the fps filter can write, plus one for its rounding), or null
 * when its length is unknown: what bounds a span to less than the window says.
 */
export function sourceClipFrames(playableSeconds: number | null, mediaStart: number, fps: Fps): number | null {
  if (playableSeconds === null || !Number.isFinite(playableSeconds)) return null;
  const seconds = Math.max(0, playableSeconds - mediaStart);
  return Math.ceil((seconds * fps.num) / fps.den) + 1;
}

/** The frames an extraction will write at most: its spans, cut at the file's end (plus its last frame, held). */
export function plannedFrames(spans: FrameSpan[], sourceFrames: number | null): number {
  if (sourceFrames === null) return spanFrames(spans);
  let frames = 0;
  for (const span of spans) {
    if (span.first > sourceFrames) return frames + 1;
    frames += Math.min(span.last, sourceFrames) - span.first + 1;
  }
  return frames;
}

/**
 * The frame a clip holds past what it shows: the highest frame written in its extraction at or below the last
 * frame its own spans reach (frames other clips of the extraction need lie beyond it), 0 when none.
 */
export function heldFrame(written: FrameSpan[], clipSpans: FrameSpan[]): number {
  const reach = Math.max(0, ...clipSpans.map((s) => s.last));
  let held = 0;
  for (const span of written) if (span.first <= reach) held = Math.max(held, Math.min(span.last, reach));
  return held;
}
