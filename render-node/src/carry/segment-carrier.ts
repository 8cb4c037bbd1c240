// A render's side of incremental re-render, pure: which fixed segments are carried from the previous render's
// output instead of captured and encoded, and every frame's fingerprint as the browsers seek it (the manifest the
// render leaves for the next one). A segment is carried only when the previous render was made under the same key,
// held the same segment cut the same way, and every one of its frames has the same fingerprint now as then, none of
// them a refusal; anything else is a reason not to, said in words for the log. The browsers share one carrier
// (render-frame-range.ts asks it before encoding a segment); its state is plain data.
import { CARRY_MANIFEST_VERSION, isProof, type CarryManifest } from "./carry-manifest.ts";

/** Frames [start, end) of the composition's clock. */
export interface CarryRange {
  start: number;
  end: number;
}

/** What a render carries from: the previous render's manifest and the key the current render computed. */
export interface CarrySource {
  manifest: CarryManifest;
  key: string;
}

/** The previous render's frames [firstFrame, firstFrame + fingerprints.length) on the composition's clock. */
function previousRange(manifest: CarryManifest): CarryRange {
  return { start: manifest.firstFrame, end: manifest.firstFrame + manifest.fingerprints.length };
}

/** The frames the previous render's segment `index` held: segment [index*S, (index+1)*S) cut to its range. */
function previousSegment(manifest: CarryManifest, index: number, segmentFrames: number): CarryRange {
  const range = previousRange(manifest);
  return { start: Math.max(range.start, index * segmentFrames), end: Math.min(range.end, (index + 1) * segmentFrames) };
}

/** Why segment `range` (number `index`, S frames a full one) is not carried, before looking at a frame; or null. */
export function whyNotCarriedAtAll(source: CarrySource, index: number, range: CarryRange, segmentFrames: number): string | null {
  if (source.manifest.key !== source.key) return "the previous render was made from other scripts, styles, files, fonts or options";
  const before = previousSegment(source.manifest, index, segmentFrames);
  if (before.start !== range.start || before.end !== range.end) return "the previous render did not hold this segment whole";
  return null;
}

/**
 * Whether composition frame `frame`, fingerprinted `fingerprint` now, is the previous render's same frame:
 * null when it is, else why not.
 */
export function whyFrameDiffers(source: CarrySource, frame: number, fingerprint: string): string | null {
  if (!isProof(fingerprint)) return fingerprint.slice(1);
  const before = source.manifest.fingerprints[frame - source.manifest.firstFrame];
  if (before === undefined) return "the previous render has no such frame";
  return before === fingerprint ? null : "what paints differs from the previous render";
}

/** The frame of the previous render's output that composition frame `frame` was (where its segment is cut). */
export function previousOutputFrame(manifest: CarryManifest, frame: number): number {
  return frame - manifest.firstFrame;
}

export interface SegmentCarrier {
  /** Why segment `index` (frames `range`) cannot be carried before any frame is sought, or null: then try it. */
  whyNotSegment(index: number, range: CarryRange): string | null;
  /** Keeps composition frame `frame`'s fingerprint; answers why it is not the previous render's frame, or null. */
  frame(frame: number, fingerprint: string): string | null;
  /** Segment `index` is carried: its file is the previous render's piece. */
  carried(index: number, range: CarryRange): void;
  /** Segment `index` was captured because of `why` (logged once per render, with the first such reason). */
  captured(index: number, why: string): void;
  /** Once every frame was sought: the render's manifest and what it carried (said in the log when carrying from a render). */
  finish(): RenderCarry;
}

/** What a render's carry comes to: the manifest it leaves for the next render, and what it carried from the previous one. */
export interface RenderCarry {
  manifest: CarryManifest;
  /** Fixed segments taken from the previous render's output, neither captured nor encoded (every frame still sought). */
  carriedSegments: number;
  carriedFrames: number;
  /** The render's fixed segments in all. */
  segments: number;
}

/**
 * The carrier of a render of composition frames [firstFrame, firstFrame + frames) under `key`, carrying from
 * `previous` (null: a render from nothing, which only records), S frames to a segment.
 */
export function segmentCarrier(input: {
  key: string; firstFrame: number; frames: number; segmentFrames: number; previous: CarryManifest | null; onLine: (line: string) => void;
  /** The render's fixed segments in all (core/render/segment-plan.ts). */
  segments: number;
}): SegmentCarrier {
  const fingerprints: string[] = Array.from({ length: input.frames }, () => "!not sought");
  const source: CarrySource | null = input.previous ? { manifest: input.previous, key: input.key } : null;
  const carried = new Map<number, CarryRange>();
  let toldWhy = false;
  return {
    whyNotSegment(index, range) {
      if (!source) return "no previous render";
      return whyNotCarriedAtAll(source, index, range, input.segmentFrames);
    },
    frame(frame, fingerprint) {
      fingerprints[frame - input.firstFrame] = fingerprint;
      return source ? whyFrameDiffers(source, frame, fingerprint) : "no previous render";
    },
    carried(index, range) {
      carried.set(index, range);
    },
    captured(index, why) {
      if (!source || toldWhy) return;
      toldWhy = true;
      input.onLine(`segment ${index + 1} rendered again, not carried: ${why}`);
    },
    finish() {
      const ranges = [...carried.values()];
      const result: RenderCarry = {
        manifest: { version: CARRY_MANIFEST_VERSION, key: input.key, firstFrame: input.firstFrame, fingerprints },
        carriedSegments: ranges.length,
        carriedFrames: ranges.reduce((sum, range) => sum + range.end - range.start, 0),
        segments: input.segments,
      };
      if (source) {
        input.onLine(`segments carried from the previous render: ${result.carriedSegments} of ${result.segments} (${result.carriedFrames} frames not captured or encoded)`);
      }
      return result;
    },
  };
}
