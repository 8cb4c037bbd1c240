// data-* timing and size attributes are strings; these helpers turn them into numbers or null, never NaN.

/** A finite number from an attribute value such as "6", "6.5" or "6s"; null when absent or not a number. */
export function parseSeconds(value: string | null): number | null {
  if (value === null) return null;
  const match = /^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*s?\s*$/i.exec(value);
  if (!match?.[1]) return null;
  const parsed = Number(match[1]);
  return Number.isFinite(parsed) ? parsed : null;
}

/** A whole pixel count such as "1920" or "1920px"; null when absent or not a whole number. */
export function parsePixels(value: string | null): number | null {
  if (value === null) return null;
  const match = /^\s*(\d+)\s*(?:px)?\s*$/i.exec(value);
  if (!match?.[1]) return null;
  return Number(match[1]);
}

/** A track index: a non-negative integer, or null. */
export function parseTrackIndex(value: string | null): number | null {
  if (value === null) return null;
  const match = /^\s*(\d+)\s*$/.exec(value);
  return match?.[1] ? Number(match[1]) : null;
}
