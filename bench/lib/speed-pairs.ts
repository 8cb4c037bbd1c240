// What the render-speed benches share when they time ours against HyperFrames in alternating pairs
// (bench/render-speed.ts: ours as a process; bench/render-speed-api.ts: ours through the studio's API): the load
// average, medians, the ratio of each pair, and a failed run's reason in one line. Pure but for `load`.
import { loadavg } from "node:os";

/** The machine's load average (1, 5, 15 minutes), as printed beside every run. */
export const load = () => loadavg().map((v) => v.toFixed(2)).join(" ");

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export interface TimedRun {
  who: "ours" | "theirs";
  /** Which pair (0-based). */
  run: number;
  seconds: number;
}

/** ours / theirs of each pair both of whose runs finished, in pair order (a pair with a failed run is left out). */
export function pairRatios(results: readonly TimedRun[], runs: number): number[] {
  return Array.from({ length: runs }, (_, i) => [results.find((r) => r.who === "ours" && r.run === i), results.find((r) => r.who === "theirs" && r.run === i)])
    .filter(([o, t]) => o && t)
    .map(([o, t]) => o!.seconds / t!.seconds);
}

/**
 * One side's run `i` (from 0) of a pair: its result, or null when it failed, the failure said with the load and listed
 * in `failures`. A failed render is a result too (e.g. a stage bound tripping on a loaded machine): said, and left out.
 */
export async function attemptRun<T>(who: "ours" | "theirs", i: number, running: Promise<T>, failures: string[]): Promise<T | null> {
  try {
    return await running;
  } catch (error) {
    console.log(`run ${i + 1} ${who.padEnd(6)} FAILED: ${failureLine(error)}  (load ${load()})`);
    failures.push(`${who} run ${i + 1}`);
    return null;
  }
}

/** A failed render's reason, one line: the last line of its error that says what failed. */
export function failureLine(error: unknown): string | undefined {
  const text = String(error instanceof Error ? error.message : error);
  return text.split("\n").filter((l) => /Error|failed|did not|was not/.test(l)).slice(-1)[0] ?? text.split("\n")[0];
}
