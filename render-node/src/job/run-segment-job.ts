// Runs one segment of a split render: frames [fromFrame, toFrame) of the plan as a closed-GOP, video-only file
// (renderSegment), uploaded for the join.
import { join } from "node:path";
import { SegmentJobOptionsSchema } from "../../../core/protocol/node-routes.ts";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import { resolveRender } from "../plan/resolve-render.ts";
import { renderSegment, segmentExtension } from "../render-segment.ts";
import { runFarmJob, type FarmJobSettings } from "./run-farm-job.ts";

export function runSegmentJob(client: NodeClient, job: Job, settings: FarmJobSettings): Promise<{ ok: boolean; error?: string }> {
  return runFarmJob(client, job, settings, async ({ work, signal, onLine, progress, stage }) => {
    const segment = SegmentJobOptionsSchema.parse(job.options);
    const options = resolveRender(segment.render);
    onLine(`job ${job.id}: frames ${segment.fromFrame}-${segment.toFrame - 1} of ${segment.plan.frames} (attempt ${job.attempt})`);
    const projectDir = join(work, "project");
    await client.downloadFiles(job.id, projectDir, signal);
    const output = join(work, `segment-${segment.index}.${segmentExtension(options.format)}`);
    await renderSegment({
      projectDir,
      options: segment.render,
      plan: segment.plan,
      fromFrame: segment.fromFrame,
      toFrame: segment.toFrame,
      outputPath: output,
      concurrency: settings.concurrency,
      strict: options.strict,
      binaries: settings.binaries,
      // The node's stage bounds, scratch budget and frame reuse, as configured (each a default when absent).
      ...settings.limits,
      signal,
      onLine,
      onProgress: (p) => progress(p.frame, p.total, p.fps, p.etaSeconds, p.frame < p.total ? "capturing" : "encoding", p.reused),
    });
    signal.throwIfAborted();
    stage("uploading");
    const { size } = await client.uploadOutput(job.id, output, "application/octet-stream");
    onLine(`uploaded segment ${segment.index} (${size} bytes)`);
    return "completed";
  });
}
