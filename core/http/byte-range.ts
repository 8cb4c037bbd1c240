// A single Range header (RFC 9110 §14.2): the two questions R2 does not answer, and the bytes it names for servers
// that read files themselves (the render node's preview). R2 reads the range itself (`get(key, { range:
// request.headers })`: suffixes, clamping to the end), but it answers a header it cannot use with the whole object,
// just as it answers "bytes=0-", so a 206 or a 416 could not be told from its reply.

export interface SingleRange {
  /** First byte, or null for a suffix range ("bytes=-500"). */
  first: number | null;
  /** Last byte as asked (R2 clamps it), or null for an open range ("bytes=500-"). */
  last: number | null;
}

const SINGLE_RANGE = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i;

/** One well-formed byte range; null for no header, several ranges or an invalid one (all answered with the whole object). */
export function singleRange(header: string | null | undefined): SingleRange | null {
  const match = header ? SINGLE_RANGE.exec(header.trim()) : null;
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first !== "" && last !== "" && Number(last) < Number(first)) return null;
  return { first: first === "" ? null : Number(first), last: last === "" ? null : Number(last) };
}

/** A range no byte of the object satisfies: it starts past the end, or is a zero-length suffix (416). */
export function isUnsatisfiable(range: SingleRange, size: number): boolean {
  return range.first === null ? range.last === 0 || size === 0 : range.first >= size;
}

/** The first and last byte (inclusive) a satisfiable range names in an object of `size` bytes, clamped to its end. */
export function rangeBytes(range: SingleRange, size: number): { first: number; last: number } {
  if (range.first === null) return { first: size - Math.min(range.last ?? 0, size), last: size - 1 };
  return { first: range.first, last: Math.min(size - 1, range.last ?? size - 1) };
}
