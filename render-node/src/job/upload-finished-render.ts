// The end of a job that made a render's file (a render done whole, or a split render's join): the output goes up
// while the poster is made from the file on disk and the last live pieces finish going up; then the carry manifest
// and the poster go up side by side. Nothing waits for what it does not need: one after the other these steps were
// a second or more of every render through the studio, several at a loaded machine's pace (bench/README.md, "Keep
// the lead, through the API"). The output is stored first, as before: a storage quota with room for only one of
// them keeps it for the video. The render is complete once all of them are there.
import { FORMAT_CONTENT_TYPES } from "../../../core/render/render-options.ts";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import { writeCarryManifest, type CarryManifest } from "../carry/carry-manifest.ts";
import type { StageTools } from "../system/stage-tools.ts";
import { postPoster, type PosterStep } from "./post-poster.ts";

export interface FinishedRender extends PosterStep {
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
