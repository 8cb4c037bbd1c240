// The last step of a finished render (a render job done whole, or a split render's join): its poster made from the
// output (poster/make-poster.ts) while the output goes up (upload-finished-render.ts), and uploaded beside it. A
// poster that cannot be made or stored never fails the render: the step says why in the log and hands the reason
// back for the completion, so GET render tells it.
import { join } from "node:path";
import type { RenderPlan } from "../../../core/protocol/render-plan.ts";
import type { Format } from "../../../core/render/render-options.ts";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import { makePoster, type Poster } from "../poster/make-poster.ts";
import { POSTER_CONTENT_TYPE } from "../poster/poster-args.ts";
import type { StageTools } from "../system/stage-tools.ts";

export interface PosterStep {
  output: string;
  format: Format;
  plan: Pick<RenderPlan, "frames" | "fps" | "durationSeconds" | "firstFrame">;
  projectDir: string;
  composition: string;
  work: string;
}

/**
 * Makes and uploads the poster; resolves with why there is none (undefined: uploaded). Throws only when the job was
 * stopped, or with `stored`'s error. The poster is made at once but goes up only once `stored` (the output's upload)
 * resolves: a storage quota with room for one of them keeps it for the video.
 */
export async function postPoster(client: NodeClient, job: Job, tools: StageTools, step: PosterStep, onLine: (line: string) => void, stored?: Promise<unknown>): Promise<string | undefined> {
  const none = (error: unknown) => {
    tools.signal.throwIfAborted();
    const why = error instanceof Error ? error.message : String(error);
    onLine(`poster: none, the render is done without one: ${why}`);
    return why;
  };
  let poster: Poster;
  try {
    poster = await makePoster(tools, {
      output: step.output, format: step.format, frames: step.plan.frames, fps: step.plan.fps.num / step.plan.fps.den,
      durationSeconds: step.plan.durationSeconds, firstFrame: step.plan.firstFrame ?? 0, compositionPath: join(step.projectDir, step.composition), work: step.work,
    });
  } catch (error) {
    return none(error);
  }
  // Its failure is the output's, which fails the job: its owner reports it.
  await stored;
  try {
    const { size } = await client.uploadPoster(job.id, poster.path, POSTER_CONTENT_TYPE);
    onLine(`poster: frame ${poster.frame} (${poster.seconds} s, ${poster.why}), ${size} bytes`);
    return undefined;
  } catch (error) {
    return none(error);
  }
}
