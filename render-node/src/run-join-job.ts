// The last step of a split render: download every segment, join them without re-encoding video, mix the audio
// once from the plan's clips and the project's files (joinSegments), upload the render's file.
import { join } from "node:path";
import { JoinJobOptionsSchema } from "../../core/protocol/node-routes.ts";
import { joinSegments } from "./join-segments.ts";
import type { Job, NodeClient } from "./node-protocol-client.ts";
import { FORMAT_CONTENT_TYPES, parseRenderOptions } from "./parse-render-options.ts";
import { segmentExtension } from "./render-segment.ts";
import { runFarmJob, type FarmJobSettings } from "./run-farm-job.ts";

export function runJoinJob(client: NodeClient, job: Job, settings: FarmJobSettings): Promise<{ ok: boolean; error?: string }> {
  return runFarmJob(client, job, settings, async ({ work, signal, onLine, progress, stage }) => {
    const joinOptions = JoinJobOptionsSchema.parse(job.options);
    const options = parseRenderOptions(joinOptions.render);
    const projectDir = join(work, "project");
    await client.downloadFiles(job.id, projectDir, signal);
    const segmentPaths: string[] = [];
    for (const index of joinOptions.segments) {
      const path = join(work, `segment-${index}.${segmentExtension(options.format)}`);
      await client.downloadSegment(job.id, index, path, signal);
      segmentPaths.push(path);
    }
    onLine(`downloaded ${segmentPaths.length} segments; joining`);
    progress(joinOptions.plan.frames, joinOptions.plan.frames, null, null, "joining");
    const output = join(work, `joined.${options.format}`);
    const joined = await joinSegments({
      projectDir, options: joinOptions.render, plan: joinOptions.plan, segmentPaths, outputPath: output,
      strict: options.strict, binaries: settings.binaries, signal, onLine,
    });
    onLine(`joined: ${joined.frames} frames, ${joined.durationSeconds.toFixed(3)} s`);
    stage("uploading");
    const { size } = await client.uploadOutput(job.id, output, FORMAT_CONTENT_TYPES[options.format]);
    onLine(`uploaded ${size} bytes`);
    return "completed";
  });
}
