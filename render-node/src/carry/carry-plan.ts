// Which fixed segments of a render are carried from the previous render's output instead of captured and encoded
// (incremental re-render): a segment is carried only when the previous render was made under the same key, held the
// same segment cut the same way, and every one of its frames has the same fingerprint now as then, none of them a
// refusal. Anything else is a reason not to, said in words for the log. Pure.
import type { CarryManifest } from "./carry-manifest.ts";
import { isProof } from "./carry-manifest.ts";

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
