// The stage bounds with the ways an await is held to them (deadline.ts): what a stage that calls into a page or
// waits on ffmpeg is handed, one value, so it imports no timer code itself. StageTools (system/stage-tools.ts) is
// this plus the binaries, the job's signal and ffmpeg runs.
import { DEFAULT_STAGE_BOUNDS, type StageBounds } from "./stage-bounds.ts";
import { pageBound, withDeadline, withPacedDeadline, type PacedBound } from "./deadline.ts";

export interface Bounded {
  bounds: StageBounds;
  /** `promise`, failing with a StageTimeout(message) after `ms`. */
  within<T>(promise: Promise<T>, ms: number, message: string | (() => string)): Promise<T>;
  /** `promise`, failing once `bound` has run out at the stage's pace (deadline.ts). */
  paced<T>(promise: Promise<T>, bound: PacedBound, message: () => string): Promise<T>;
  /** A call into a composition's page: `ms` at the pace its browser (process `browserPid`) gets (deadline.ts pageBound). */
  inPage<T>(promise: Promise<T>, ms: number, browserPid: number | undefined, message: () => string): Promise<T>;
}

export function bounded(bounds: StageBounds = DEFAULT_STAGE_BOUNDS): Bounded {
  return {
    bounds,
    within: withDeadline,
    paced: withPacedDeadline,
    inPage: (promise, ms, browserPid, message) => withPacedDeadline(promise, pageBound(ms, browserPid), message),
  };
}
