// The order of the group where the workerd files run beside the end-to-end files (test/lanes-sequencer.ts applies it
// to vitest's own order): pure, so test/node/lane-order.test.ts shows it on plain names.

/**
 * `sorted` reordered: the files of no lane first (other groups: where they stand does not matter), then the lock's
 * file with the longest `expectedMs` (the first of equals), every file of the beside lane in its order, and the
 * lock's other files in theirs. Unchanged when either lane has no file.
 */
export function laneOrder<T>(sorted: readonly T[], lane: (spec: T) => "lock" | "beside" | "other", expectedMs: (spec: T) => number): T[] {
  const lock = sorted.filter((spec) => lane(spec) === "lock");
  const beside = sorted.filter((spec) => lane(spec) === "beside");
  if (lock.length === 0 || beside.length === 0) return [...sorted];
  const lead = lock.reduce((best, spec) => (expectedMs(spec) > expectedMs(best) ? spec : best));
  return [...sorted.filter((spec) => lane(spec) === "other"), lead, ...beside, ...lock.filter((spec) => spec !== lead)];
}
