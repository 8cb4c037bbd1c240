// A render's side of incremental re-render: every frame's fingerprint as the browsers seek it (the manifest the
// render leaves for the next one), and, when a previous render is given, which segments are carried from it. The
// browsers share one carrier (render-frame-range.ts asks it before encoding a segment); its state is plain data.
import { CARRY_MANIFEST_VERSION, type CarryManifest } from "./carry-manifest.ts";
import { whyFrameDiffers, whyNotCarriedAtAll, type CarryRange, type CarrySource } from "./carry-plan.ts";

export interface SegmentCarrier {
  /** Why segment `index` (frames `range`) cannot be carried before any frame is sought, or null: then try it. */
  whyNotSegment(index: number, range: CarryRange): string | null;
  /** Keeps composition frame `frame`'s fingerprint; answers why it is not the previous render's frame, or null. */
  frame(frame: number, fingerprint: string): string | null;
  /** Segment `index` is carried: its file is the previous render's piece. */
  carried(index: number, range: CarryRange): void;
  /** Segment `index` was captured because of `why` (logged once per render, with the first such reason). */
  captured(index: number, why: string): void;
  /** The segments carried so far, by index. */
  carriedSegments(): ReadonlyMap<number, CarryRange>;
  /** The render's manifest once every frame was sought. */
  manifest(): CarryManifest;
}

/**
 * The carrier of a render of composition frames [firstFrame, firstFrame + frames) under `key`, carrying from
 * `previous` (null: a render from nothing, which only records), S frames to a segment.
 */
export function segmentCarrier(input: {
  key: string; firstFrame: number; frames: number; segmentFrames: number; previous: CarryManifest | null; onLine: (line: string) => void;
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
    carriedSegments: () => carried,
    manifest: () => ({ version: CARRY_MANIFEST_VERSION, key: input.key, firstFrame: input.firstFrame, fingerprints }),
  };
}
