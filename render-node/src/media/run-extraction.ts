// Runs one planned extraction: one ffmpeg per span of frames into the extraction's folder, under the job's
// scratch budget. Frames: each run may write at most the room left plus one (-frames:v), so a file longer than
// its probe said is caught the moment it passes the budget. Bytes: the folder's new files are summed every
// WATCH_MS while ffmpeg writes, and the run is killed as soon as the job's frames pass the byte budget (at most
// one look's worth of frames past it, a few MB), then checked once more when it ends.
import { rename, stat } from "node:fs/promises";
import { join } from "node:path";
import { buildExtractArgs, buildLastFrameArgs } from "./build-extract-args.ts";
import { followFrameFiles, frameFileName, type FrameFiles } from "./follow-frame-files.ts";
import type { Fps } from "../plan/resolve-render.ts";
import type { FrameSpan, PlannedExtraction } from "./plan-video-extractions.ts";
import type { StageTools } from "../system/stage-tools.ts";
import { byteBudgetExceeded, frameBudgetExceeded, type ScratchBudget } from "./scratch-budget.ts";
import { encodeBound } from "../bounds/stage-bounds.ts";

const WATCH_MS = 200;

/** What the job's extractions have written so far (shared by its runs, so the budget is the job's). */
export interface ScratchUse {
  bytes: number;
  frames: number;
  /** ffmpeg runs started (the tests count them). */
  runs: number;
}

export interface RunExtractionInput {
  extraction: PlannedExtraction;
  out: string;
  /** ffmpeg, the bounds and the job's signal. */
  tools: StageTools;
  fps: Fps;
  fpsText: string;
  budget: ScratchBudget;
  use: ScratchUse;
}

/** Runs the extraction's spans; returns the frames written, as spans (a held last frame is a span of one). */
export async function runExtraction(input: RunExtractionInput): Promise<FrameSpan[]> {
  const { extraction, budget, use } = input;
  const written: FrameSpan[] = [];
  const common = {
    file: extraction.file, out: input.out, mediaStart: extraction.mediaStart, playbackRate: extraction.playbackRate,
    seconds: extraction.seconds, fps: input.fps, fpsText: input.fpsText,
  };
  const stage = `extracting the frames of ${extraction.name}`;
  // Media seconds a run decodes, for its bound: from the in-point to its last frame, at the clip's rate.
  const mediaSeconds = (lastFrame: number) => Math.min(extraction.seconds, (lastFrame * input.fps.den) / input.fps.num) * Math.max(1, extraction.playbackRate);
  for (const span of extraction.spans) {
    const room = budget.videoFrames - use.frames;
    const files = followFrameFiles(input.out, span.first);
    use.runs += 1;
    await runWatched(input, files, buildExtractArgs({ ...common, span, maxFrames: room + 1 }), {
      ms: encodeBound(input.tools.bounds, mediaSeconds(span.last)), stage,
    }, extraction.name);
    const { bytes, files: count } = await files.look();
    use.bytes += bytes;
    use.frames += count;
    if (use.frames > budget.videoFrames) throw new Error(frameBudgetExceeded({ name: extraction.name, written: use.frames, budget: budget.videoFrames }));
    if (use.bytes > budget.videoFrameBytes) {
      throw new Error(byteBudgetExceeded({ name: extraction.name, bytes: use.bytes, frames: use.frames, budget: budget.videoFrameBytes }));
    }
    if (count > 0) {
      written.push({ first: span.first, last: span.first + count - 1 });
      if (count < span.last - span.first + 1) break; // the file ended inside this span: later spans get nothing
      continue;
    }
    // The file ended before this span (and at or after the span before, which was written whole). The page holds
    // the file's last frame over it: decode the file through, keep only its last frame, numbered as the span's first.
    use.runs += 1;
    await input.tools.run(input.tools.binaries.ffmpeg, buildLastFrameArgs(common), {
      bound: { ms: encodeBound(input.tools.bounds, mediaSeconds(Number.MAX_SAFE_INTEGER)), stage },
    }).done;
    const last = join(input.out, "last.jpg");
    const size = await stat(last).then((info) => info.size, (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null; // a file with no frame at all
      throw error;
    });
    if (size !== null) {
      await rename(last, join(input.out, frameFileName(span.first)));
      use.bytes += size;
      use.frames += 1;
      written.push({ first: span.first, last: span.first });
      if (use.frames > budget.videoFrames) throw new Error(frameBudgetExceeded({ name: extraction.name, written: use.frames, budget: budget.videoFrames }));
    }
    break;
  }
  return written;
}

/** Runs ffmpeg while looking at the files it writes every WATCH_MS; kills it when the job passes the byte budget. */
async function runWatched(input: RunExtractionInput, files: FrameFiles, args: string[], bound: { ms: number; stage: string }, name: string): Promise<void> {
  const { use, budget } = input;
  const run = new AbortController();
  const { signal } = input.tools;
  const forward = () => run.abort(signal.reason);
  signal.addEventListener("abort", forward, { once: true });
  if (signal.aborted) forward();
  let looking = false;
  const timer = setInterval(() => {
    if (looking || run.signal.aborted) return;
    looking = true;
    files.look().then(
      ({ bytes, files: count }) => {
        if (use.bytes + bytes <= budget.videoFrameBytes) return;
        run.abort(new Error(byteBudgetExceeded({ name, bytes: use.bytes + bytes, frames: use.frames + count, budget: budget.videoFrameBytes })));
      },
      (error: unknown) => run.abort(error),
    ).finally(() => {
      looking = false;
    });
  }, WATCH_MS);
  try {
    await input.tools.run(input.tools.binaries.ffmpeg, args, { bound, signal: run.signal }).done;
  } finally {
    clearInterval(timer);
    signal.removeEventListener("abort", forward);
  }
}
