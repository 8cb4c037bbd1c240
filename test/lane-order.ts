// The order of the group where the workerd files run beside the end-to-end files (test/lanes-sequencer.ts applies it
// to vitest's own order): pure, so test/node/lane-order.test.ts shows it on plain names.
//
// vitest hands the group's files, in this order, to whichever of its two workers is free. An end-to-end file taken
// while another runs waits for the lock and holds its worker idle; a workerd file taken while another runs is only
// two workerd files at once. So an end-to-end file comes only after enough workerd files to keep the other worker
// busy until the end-to-end file before it has ended, by the expected durations with a margin: late is cheap, early
// idles a worker.

/** How much longer than expected the end-to-end files may run, against the workerd files, before one waits idle. */
export const MARGIN = 1.3;

/**
 * `sorted` reordered: the files of no lane first (other groups: where they stand does not matter), then the lock's
 * file with the longest `expectedMs` (the first of equals), then the beside lane's files in their order, each of the
 * lock's other files (in theirs) placed where the beside files before it are expected to outlast, by MARGIN, the
 * lock's files before it. Unchanged when either lane has no file.
 */
export function laneOrder<T>(sorted: readonly T[], lane: (spec: T) => "lock" | "beside" | "other", expectedMs: (spec: T) => number): T[] {
  const lock = sorted.filter((spec) => lane(spec) === "lock");
  const beside = sorted.filter((spec) => lane(spec) === "beside");
  if (lock.length === 0 || beside.length === 0) return [...sorted];
  const lead = lock.reduce((best, spec) => (expectedMs(spec) > expectedMs(best) ? spec : best));
  const lockQueue = lock.filter((spec) => spec !== lead);
  const order = [...sorted.filter((spec) => lane(spec) === "other"), lead];
  let lockEnds = expectedMs(lead);
  let besideEnds = 0;
  for (const spec of beside) {
    while (lockQueue.length > 0 && besideEnds > lockEnds * MARGIN) {
      const next = lockQueue.shift()!;
      order.push(next);
      lockEnds += expectedMs(next);
    }
    order.push(spec);
    besideEnds += expectedMs(spec);
  }
  return [...order, ...lockQueue];
}
