// The end of a job that made a render's file (a render done whole, or a split render's join): the output goes up
// while the poster is made from the file on disk and the last live pieces finish going up; then the carry manifest
// and the poster go up side by side. Nothing waits for what it does not need: one after the other these steps were
// a second or more of every render through the studio, several at a loaded machine's pace (bench/README.md, "Keep
// the lead, through the API"). The output is stored first, as before: a storage quota with room for only one of
// them keeps it for the video. The render is complete once all of them are there. A poster that cannot be made or
// stored never fails the render: the log says why and the completion hands the reason back, so GET render tells it.
import { plannedPosterMoment } from "../../../core/composition/poster-time.ts";
import type { RenderPlan } from "../../../core/protocol/render-plan.ts";
import { FORMAT_CONTENT_TYPES, type Format } from "../../../core/render/render-options.ts";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import { writeCarryManifest, type CarryManifest } from "../carry/carry-manifest.ts";
import { makePoster, POSTER_CONTENT_TYPE, type Poster } from "../poster/make-poster.ts";
import type { StageTools } from "../system/stage-tools.ts";

export interface FinishedRender {
  output: string;
  format: Format;
  /** The video's frames and rate, and the poster's moment, as the plan settled them (the Worker's copy for a join). */
  plan: Pick<RenderPlan, "frames" | "fps" | "durationSeconds" | "poster">;
  /** The job's scratch folder, where the poster is made. */
  work: string;
  /** The manifest the next render carries from (none: a format that carries nothing, or a join). */
  manifest?: CarryManifest | undefined;
  /** Work the job still has in flight that must end before it completes (the live view's last uploads); never rejects. */
  pending?: Promise<void> | undefined;
}

/** Times a stage of the job (the render's timeline); by default only runs it. */
type Time = <T>(stage: string, work: () => Promise<T>) => Promise<T>;

/**
 * Uploads the output, then the manifest and the poster, and waits for all of them (and `pending`); resolves with the
 * output's size and why there is no poster (undefined: uploaded). Rejects when the output could not be stored (or
 * the job was stopped), once the others have ended: nothing is left writing into the job's folder.
 */
export async function uploadFinishedRender(
  client: NodeClient, job: Job, tools: StageTools, render: FinishedRender, onLine: (line: string) => void, time: Time = (_stage, work) => work(),
): Promise<{ size: number; posterError: string | undefined }> {
  onLine("uploading output");
  const output = time("uploading", async () => {
    const { size } = await client.uploadOutput(job.id, render.output, FORMAT_CONTENT_TYPES[render.format]);
    onLine(`uploaded ${size} bytes`);
    return size;
  });
  const manifest = render.manifest ? output.then(() => uploadManifest(client, job.id, render.manifest!, onLine)) : undefined;
  const poster = time("poster", () => postPoster(client, job, tools, render, onLine, output));
  const [size, , posterError] = await Promise.allSettled([output, manifest, poster, render.pending]);
  if (size.status === "rejected") throw size.reason;
  // postPoster rejects only when the job was stopped.
  if (posterError.status === "rejected") throw posterError.reason;
  return { size: size.value, posterError: posterError.value };
}

/** The render's manifest beside its output, for the next render to carry from; without it that render is a full one. */
async function uploadManifest(client: NodeClient, id: string, manifest: CarryManifest, onLine: (line: string) => void): Promise<void> {
  try {
    await client.uploadManifest(id, writeCarryManifest(manifest));
  } catch (error) {
    onLine(`the carry manifest was not stored (${(error as Error).message}): the next render of this composition renders in full`);
  }
}

/**
 * Makes and uploads the poster; resolves with why there is none (undefined: uploaded). Throws only when the job was
 * stopped, or with `stored`'s error. The poster is made at once but goes up only once `stored` (the output's upload)
 * resolves: a storage quota with room for one of them keeps it for the video.
 */
async function postPoster(client: NodeClient, job: Job, tools: StageTools, render: FinishedRender, onLine: (line: string) => void, stored: Promise<unknown>): Promise<string | undefined> {
  const none = (error: unknown) => {
    tools.signal.throwIfAborted();
    const why = error instanceof Error ? error.message : String(error);
    onLine(`poster: none, the render is done without one: ${why}`);
    return why;
  };
  const { plan } = render;
  let poster: Poster;
  try {
    poster = await makePoster(tools, { output: render.output, format: render.format, fps: plan.fps.num / plan.fps.den, moment: plannedPosterMoment(plan), work: render.work });
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
