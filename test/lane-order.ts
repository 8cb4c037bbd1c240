// The order of the group where the workerd files run beside the end-to-end files (test/lanes-sequencer.ts applies it
// to vitest's own order): pure, so test/node/lane-order.test.ts shows it on plain names.
//
// vitest hands the group's files, in this order, to whichever of its two workers is free. The end-to-end files hold
// the one-at-a-time lock in turn and together take longer than everything else (test/README.md, "How long the suite
// takes"), so the lock must never be free for want of a file: an end-to-end file a worker takes while another holds
// the lock starts its worker and imports while it waits, and gets the lock the moment it is handed on; one taken
// only after the lock is free costs those seconds on the lock's clock, and one taken after a beside file that a free
// worker picked up instead leaves the lock idle for that file's whole length. A beside file (workerd, light
// end-to-end) fits in the time the lock is held by the other worker, or it waits.

/** How much longer than expected a beside file may run before the end-to-end file after it finds the lock idle. */
export const MARGIN = 1.6;

type Lane = "lock" | "beside" | "other";

/**
 * `sorted` reordered: the lock's file with the longest `expectedMs` first (the first of equals), then the files of no
 * lane (`pure`: the other worker runs them while that file waits for what its studio needs, prepared in the
 * background: test/studio-template.global.ts; one worker, so the preparation shares the cores with one process, not
 * two), then the order in which two workers, each taking the next file when its last ends (by `expectedMs`), keep the
 * lock busy, the other lock files in their order: a worker that comes free while the other holds the lock takes the
 * first beside file (in their order) expected to end, by MARGIN, before the lock is free, and when none fits, the
 * next lock file, to wait for it. A worker that comes free with the lock free takes the next lock file. Unless the
 * beside files left, by MARGIN, would outlast the lock's files left: then the next beside file goes anyway (the
 * lock's next file then starts late by its own start, not by the beside file's length). Unchanged when either lane
 * has no file.
 */
export function laneOrder<T>(sorted: readonly T[], lane: (spec: T) => Lane, expectedMs: (spec: T) => number): T[] {
  const lock = sorted.filter((spec) => lane(spec) === "lock");
  const beside = sorted.filter((spec) => lane(spec) === "beside");
  if (lock.length === 0 || beside.length === 0) return [...sorted];
  const lead = lock.reduce((best, spec) => (expectedMs(spec) > expectedMs(best) ? spec : best));
  const lockQueue = [lead, ...lock.filter((spec) => spec !== lead)];
  const order = [lockQueue.shift()!, ...sorted.filter((spec) => lane(spec) === "other")];
  /** When each of the two workers is expected to come free: one runs the lead, the other the files of no lane. */
  let lockFreeAt = expectedMs(lead);
  const freeAt = [lockFreeAt, order.slice(1).reduce((sum, spec) => sum + expectedMs(spec), 0)];
  const total = (specs: readonly T[]) => specs.reduce((sum, spec) => sum + expectedMs(spec), 0);

  const takeLock = (worker: number) => {
    const spec = lockQueue.shift()!;
    order.push(spec);
    lockFreeAt = Math.max(freeAt[worker]!, lockFreeAt) + expectedMs(spec);
    freeAt[worker] = lockFreeAt;
  };
  const takeBeside = (worker: number, index: number) => {
    const [spec] = beside.splice(index, 1);
    order.push(spec!);
    freeAt[worker]! += expectedMs(spec!);
  };

  while (lockQueue.length > 0 || beside.length > 0) {
    const worker = freeAt[0]! <= freeAt[1]! ? 0 : 1;
    const now = freeAt[worker]!;
    if (beside.length === 0) takeLock(worker);
    else if (lockQueue.length === 0) takeBeside(worker, 0);
    // The other worker holds the lock (or waits for it) until lockFreeAt; otherwise the lock is free now.
    else if (lockFreeAt <= now) takeLock(worker);
    else {
      const fits = beside.findIndex((spec) => now + expectedMs(spec) * MARGIN <= lockFreeAt);
      if (fits !== -1) takeBeside(worker, fits);
      else if (total(beside) * MARGIN >= total(lockQueue)) takeBeside(worker, 0);
      else takeLock(worker);
    }
  }
  return order;
}
