// Incremental re-render, one browser's look at a segment before encoding it: every frame sought forward and
// fingerprinted (so what a seek raises is still found), compared with the previous render's same frame. All equal:
// the segment is carried (nothing captured or encoded). Otherwise it is captured, and how depends on where the
// first difference is: at the segment's first frame the page is already there, so the capture goes on from it; past
// it, the capture seeks back to the segment's start, and each frame sought again must show what it showed going
// forward (a timeline callback is not undone by seeking back), else the render starts over without carrying
// (CarryReplayMismatch).
import type { CarryRange, SegmentCarrier } from "./segment-carrier.ts";

/** A frame sought again after seeking back showed something else than going forward: render without carrying. */
export class CarryReplayMismatch extends Error {
  constructor(frame: number) {
    super(`frame ${frame + 1} looked otherwise when sought again after seeking back; rendering again without carrying`);
    this.name = "CarryReplayMismatch";
  }
}

export type ScoutVerdict =
  | { carried: true }
  /** Captured; `expect` (by frame, from the segment's start) holds what each frame must show when sought again. */
  | { carried: false; expect: string[] | null };

/**
 * Looks at segment `index` (frames `range`) with `seek` (seeks composition frame f forward from the frame before, or
 * from nothing when `from` is null, and answers its fingerprint) and `isTransition` (a shader transition's frame:
 * blended, never fingerprinted).
 */
export async function scoutSegment(carrier: SegmentCarrier, index: number, range: CarryRange, io: {
  seek: (frame: number, first: boolean) => Promise<string>;
  isTransition: (frame: number) => boolean;
  signal: AbortSignal;
}): Promise<ScoutVerdict> {
  const whyNot = carrier.whyNotSegment(index, range);
  if (whyNot) {
    carrier.captured(index, whyNot);
    return { carried: false, expect: null };
  }
  const seen: string[] = [];
  let why: string | null = null;
  for (let frame = range.start; frame < range.end; frame++) {
    io.signal.throwIfAborted();
    if (io.isTransition(frame)) {
      why = "a shader transition is blended";
      // Nothing sought yet: the capture starts here as it would have.
      if (frame === range.start) break;
      seen.push("!shader transition");
      continue;
    }
    const print = await io.seek(frame, frame === range.start);
    seen.push(print);
    const differs = carrier.frame(frame, print);
    if (differs && frame === range.start) {
      carrier.captured(index, differs);
      return { carried: false, expect: null };
    }
    why ??= differs;
  }
  if (why === null) {
    carrier.carried(index, range);
    return { carried: true };
  }
  carrier.captured(index, why);
  return { carried: false, expect: seen.length === range.end - range.start ? seen : null };
}
