// What every stage of a job reaches for besides its own work: the binaries, the stage bounds, the job's abort
// signal, and the two helpers built on them, ffmpeg/ffprobe runs (run-tool.ts: killed on the signal, dying with the
// node) and bounded awaits (bounds/deadline.ts). Made once per job (or capture session) and handed down, so a stage
// takes one context instead of four loose values and imports neither helper itself.
import type { Binaries } from "./resolve-binaries.ts";
import { runTool, type ToolOptions, type ToolRun } from "./run-tool.ts";
import type { StageBounds } from "../bounds/stage-bounds.ts";
import { withDeadline, withPacedDeadline, type PacedBound } from "../bounds/deadline.ts";

export interface StageTools {
  binaries: Binaries;
  bounds: StageBounds;
  /** The job's (or session's) signal: what is started through `run` is killed when it aborts. */
  signal: AbortSignal;
  /** Starts ffmpeg or ffprobe (`binaries.ffmpeg`, `binaries.ffprobe`) for this job; `signal` narrows the job's for one run. */
  run(file: string, args: string[], options?: ToolOptions & { signal?: AbortSignal }): ToolRun;
  /** `promise`, failing with a StageTimeout(message) after `ms`. */
  within<T>(promise: Promise<T>, ms: number, message: string | (() => string)): Promise<T>;
  /** `promise`, failing once `bound` has run out at the stage's pace (deadline.ts). */
  paced<T>(promise: Promise<T>, bound: PacedBound, message: () => string): Promise<T>;
}

export function stageTools(binaries: Binaries, bounds: StageBounds, signal: AbortSignal): StageTools {
  return {
    binaries,
    bounds,
    signal,
    run: (file, args, options) => runTool(file, args, options?.signal ?? signal, options),
    within: withDeadline,
    paced: withPacedDeadline,
  };
}
