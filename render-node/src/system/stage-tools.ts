// What every stage of a job reaches for besides its own work: the binaries, the stage bounds, the job's abort
// signal, and the two helpers built on them, ffmpeg/ffprobe runs (run-tool.ts: killed on the signal, dying with the
// node) and bounded awaits (bounds/deadline.ts). Made once per job (or capture session) and handed down, so a stage
// takes one context instead of four loose values and imports neither helper itself.
import type { Binaries } from "./resolve-binaries.ts";
import { runTool, type ToolOptions, type ToolRun } from "./run-tool.ts";
import type { StageBounds } from "../bounds/stage-bounds.ts";
import { bounded, type Bounded } from "../bounds/bounded.ts";

export interface StageTools extends Bounded {
  binaries: Binaries;
  /** The job's (or session's) signal: what is started through `run` is killed when it aborts. */
  signal: AbortSignal;
  /** Starts ffmpeg or ffprobe (`binaries.ffmpeg`, `binaries.ffprobe`) for this job; `signal` narrows the job's for one run. */
  run(file: string, args: string[], options?: ToolOptions & { signal?: AbortSignal }): ToolRun;
}

export function stageTools(binaries: Binaries, bounds: StageBounds, signal: AbortSignal): StageTools {
  return {
    ...bounded(bounds),
    binaries,
    signal,
    run: (file, args, options) => runTool(file, args, options?.signal ?? signal, options),
  };
}
