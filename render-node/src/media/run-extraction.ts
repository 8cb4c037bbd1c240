// Runs one planned extraction: one ffmpeg per span of frames into the extraction's folder, under the job's
// scratch budget. Frames: each run may write at most the room left plus one (-frames:v), so a file longer than
// its probe said is caught the moment it passes the budget. Bytes: the folder's new files are summed while ffmpeg
// writes (follow-frame-files.ts runFollowed), and the run is killed as soon as the job's frames pass the byte
// budget (at most one look's worth of frames past it, a few MB), then checked once more when it ends.
import { rename, stat } from "node:fs/promises";
import { join } from "node:path";
import { buildExtractArgs, buildLastFrameArgs } from "./build-extract-args.ts";
import { frameFileName, runFollowed } from "./follow-frame-files.ts";
import type { Fps } from "../plan/resolve-render.ts";
import type { FrameSpan, PlannedExtraction } from "./plan-video-extractions.ts";
import type { StageTools } from "../system/stage-tools.ts";
import { byteBudgetExceeded, frameBudgetExceeded, type ScratchBudget } from "./scratch-budget.ts";
import type { ScratchUse } from "./follow-frame-files.ts";
import { encodeBound } from "../bounds/stage-bounds.ts";

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
    file: extraction.file, out: input.out, mediaStart: extraction.mediaStart,
    seconds: extraction.seconds, fps: input.fps, fpsText: input.fpsText,
  };
  const stage = `extracting the frames of ${extraction.name}`;
  // The run for a file that ended before a span (below): its arguments depend on no span.
  const lastFrameArgs = buildLastFrameArgs(common);
  // Media seconds a run decodes, for its bound: from the in-point to its last frame (frames are on the file's clock).
  const mediaSeconds = (lastFrame: number) => Math.min(extraction.seconds, (lastFrame * input.fps.den) / input.fps.num);
  for (const span of extraction.spans) {
    const room = budget.videoFrames - use.frames;
    const args = buildExtractArgs({ ...common, span, maxFrames: room + 1 });
    use.runs += 1;
    const { bytes, files: count } = await runFollowed(input.tools, args, {
      dir: input.out, first: span.first, name: extraction.name, use, budget, bound: { ms: encodeBound(input.tools.bounds, mediaSeconds(span.last)), stage },
    });
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
    await input.tools.run(input.tools.binaries.ffmpeg, lastFrameArgs, {
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
