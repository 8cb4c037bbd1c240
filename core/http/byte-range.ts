// A single HTTP byte range (RFC 9110 §14.1.2). Several ranges at once are answered with the whole file, which the
// RFC allows; a range that cannot be satisfied is a 416.
export type RangeResult =
  | { kind: "none" }
  | { kind: "range"; offset: number; length: number }
  | { kind: "unsatisfiable" };

export function parseByteRange(header: string | null | undefined, size: number): RangeResult {
  if (!header) return { kind: "none" };
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!match) return header.includes(",") || !/^bytes=/i.test(header.trim()) ? { kind: "none" } : { kind: "unsatisfiable" };
  const [, startText = "", endText = ""] = match;
  if (startText === "" && endText === "") return { kind: "unsatisfiable" };
  if (startText === "") {
    const suffix = Number(endText);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    const length = Math.min(suffix, size);
    return { kind: "range", offset: size - length, length };
  }
  const start = Number(startText);
  if (start >= size) return { kind: "unsatisfiable" };
  const end = endText === "" ? size - 1 : Math.min(Number(endText), size - 1);
  if (end < start) return { kind: "unsatisfiable" };
  return { kind: "range", offset: start, length: end - start + 1 };
}
