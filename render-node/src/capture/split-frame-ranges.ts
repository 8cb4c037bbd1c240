// Contiguous frame ranges, one per browser, as even as possible.

export interface FrameRange {
  start: number;
  /** Exclusive. */
  end: number;
}

/** Splits [0, total) into at most `parts` contiguous non-empty ranges whose sizes differ by at most one. */
export function splitFrameRanges(total: number, parts: number): FrameRange[] {
  const count = Math.max(1, Math.min(parts, total));
  const ranges: FrameRange[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const size = Math.floor(total / count) + (i < total % count ? 1 : 0);
    ranges.push({ start, end: start + size });
    start += size;
  }
  return ranges;
}
