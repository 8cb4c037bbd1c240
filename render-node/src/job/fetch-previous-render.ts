// Incremental re-render, the job's side: the previous render the Worker handed a render job at its claim
// (Job.carryFrom), downloaded into the job's scratch folder for the pipeline to carry from (src/carry/). Anything
// that goes wrong getting it means a full render, said in the log: never a failed render.
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import type { PreviousRender } from "../carry/prepare-carry.ts";
import { readCarryManifest } from "../carry/carry-manifest.ts";

/** The previous render's output goes to `outputPath`; null when the job was handed none or it could not be had. */
export async function fetchPreviousRender(client: NodeClient, job: Job, outputPath: string, signal: AbortSignal, onLine: (line: string) => void): Promise<PreviousRender | null> {
  if (!job.carryFrom) return null;
  try {
    const [text] = await Promise.all([client.readPreviousManifest(job.id, signal), client.downloadPreviousOutput(job.id, outputPath, signal)]);
    const read = readCarryManifest(text);
    if (!read.manifest) {
      onLine(`rendering in full: the manifest of render ${job.carryFrom} is unusable (${read.why})`);
      return null;
    }
    onLine(`carrying from render ${job.carryFrom}: its output and manifest downloaded`);
    return { outputPath, manifest: read.manifest };
  } catch (error) {
    signal.throwIfAborted();
    onLine(`rendering in full: render ${job.carryFrom} could not be downloaded to carry from (${(error as Error).message})`);
    return null;
  }
}
