// Incremental re-render, the job's side: the previous render the Worker handed a render job at its claim
// (Job.carryFrom), downloaded into the job's scratch folder for the pipeline to carry from (src/carry/). Anything
// that goes wrong getting it means a full render, said in the log: never a failed render. It is downloaded only once
// the Worker kept the render whole on this node (its answer to the plan): a render it splits goes to segment jobs,
// which carry nothing, so the previous output (the size of a whole video) would come down for nothing.
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import type { PreviousRender } from "../carry/prepare-carry.ts";
import { readCarryManifest } from "../carry/carry-manifest.ts";
import type { Timeline } from "../progress/render-timeline.ts";

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

/** The previous render as the pipeline awaits it, and the Worker's answer to the plan that starts or settles it. */
export interface PreviousAfterPlan {
  /** Null when the job was handed none; else settles once `kept` or `split` is called. */
  previous: Promise<PreviousRender | null> | null;
  /** The Worker keeps the render whole here: download the previous render now. */
  kept(): void;
  /** The Worker split the render: nothing to download. */
  split(): void;
}

/** fetchPreviousRender, started by the Worker's answer to the plan rather than at the claim (a stage of `timeline`). */
export function previousAfterPlan(client: NodeClient, job: Job, outputPath: string, signal: AbortSignal, onLine: (line: string) => void, timeline: Timeline): PreviousAfterPlan {
  if (!job.carryFrom) return { previous: null, kept: () => {}, split: () => {} };
  let settle: (previous: Promise<PreviousRender | null> | null) => void = () => {};
  const previous = new Promise<PreviousRender | null>((resolve) => (settle = resolve));
  return {
    previous,
    kept: () => settle(timeline.time("downloading the previous render", () => fetchPreviousRender(client, job, outputPath, signal, onLine))),
    split: () => settle(null),
  };
}
