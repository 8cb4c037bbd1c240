// Optimal-string-alignment distance (Levenshtein plus adjacent swaps), cut off early: the scorer only needs to
// know whether two stems are within one or two typos of each other.

/** Edit distance between a and b, or max + 1 when it exceeds max. */
export function typoDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (prevPrev[j - 2] ?? 0) + 1);
      }
      row.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length] ?? max + 1;
}

/** Typos tolerated for a stem of this length: none below 5 letters (mode/node are different words), one up to 8. */
export function typoBudget(length: number): number {
  if (length < 5) return 0;
  return length < 9 ? 1 : 2;
}
