// An extraction's ffmpeg run, followed while it writes: the bytes of the numbered JPEGs it writes (<dir>/000031.jpg,
// 000032.jpg, …) are summed as they appear, so the scratch budget can stop it mid-run. ffmpeg's own size limit
// (-fs) does not apply to image sequences, so the node watches: each file is read once when the next one exists
// (it is complete), and the newest one (maybe still being written) again at every look. A look costs one stat per
// new file, never a listing of the folder.
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { byteBudgetExceeded, type ScratchBudget } from "./scratch-budget.ts";
import type { StageTools } from "../system/stage-tools.ts";

const WATCH_MS = 200;

/** What the job's extractions have written so far (shared by its runs, so the budget is the job's). */
export interface ScratchUse {
  bytes: number;
  frames: number;
  /** ffmpeg runs started (the tests count them). */
  runs: number;
}

export function frameFileName(frame: number): string {
  return `${String(frame).padStart(6, "0")}.jpg`;
}

export interface FrameFiles {
  /** Bytes and files written from `first` on so far. */
  look(): Promise<{ bytes: number; files: number }>;
}

export function followFrameFiles(dir: string, first: number): FrameFiles {
  let next = first;
  let complete = 0;
  // A file not there yet is null; any other failure to read one is the run's failure.
  const size = (frame: number) =>
    stat(join(dir, frameFileName(frame))).then((info) => info.size, (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    });
  return {
    async look() {
      for (;;) {
        const current = await size(next);
        if (current === null) return { bytes: complete, files: next - first };
        const after = await size(next + 1);
        if (after === null) return { bytes: complete + current, files: next - first + 1 };
        complete += current;
        next += 1;
      }
    },
  };
}

/** One run: where its frames go (from frame `first`), the clip's name for messages, the job's budget and its bound. */
export interface FollowedRun {
  dir: string;
  first: number;
  name: string;
  use: ScratchUse;
  budget: ScratchBudget;
  bound: { ms: number; stage: string };
}

/**
 * Runs ffmpeg with `args` while looking at the files it writes every WATCH_MS; kills it when the job passes the
 * byte budget. Returns what it wrote, looked at once more after it ended.
 */
export async function runFollowed(tools: StageTools, args: string[], run: FollowedRun): Promise<{ bytes: number; files: number }> {
  const { use, budget, name } = run;
  const files = followFrameFiles(run.dir, run.first);
  const stop = new AbortController();
  const { signal } = tools;
  const forward = () => stop.abort(signal.reason);
  signal.addEventListener("abort", forward, { once: true });
  if (signal.aborted) forward();
  let looking = false;
  const timer = setInterval(() => {
    if (looking || stop.signal.aborted) return;
    looking = true;
    files.look().then(
      ({ bytes, files: count }) => {
        if (use.bytes + bytes <= budget.videoFrameBytes) return;
        stop.abort(new Error(byteBudgetExceeded({ name, bytes: use.bytes + bytes, frames: use.frames + count, budget: budget.videoFrameBytes })));
      },
      (error: unknown) => stop.abort(error),
    ).finally(() => {
      looking = false;
    });
  }, WATCH_MS);
  try {
    await tools.run(tools.binaries.ffmpeg, args, { bound: run.bound, signal: stop.signal }).done;
  } finally {
    clearInterval(timer);
    signal.removeEventListener("abort", forward);
  }
  return files.look();
}
