// The last step of a split render: download every segment, join them without re-encoding video, mix the audio
// once from the plan's clips and the project's files (while the segments download), upload the render's file.
import { join } from "node:path";
import { JoinJobOptionsSchema } from "../../../core/protocol/node-routes.ts";
import { formatFindingLine } from "../../../core/protocol/finding.ts";
import { joinSegments } from "../join-segments.ts";
import { mixAudioTrack } from "../media/mix-audio-track.ts";
import { resolveBinaries } from "../system/resolve-binaries.ts";
import { DEFAULT_STAGE_BOUNDS } from "../bounds/stage-bounds.ts";
import type { Job, NodeClient } from "../protocol/node-protocol-client.ts";
import { resolveRender } from "../plan/resolve-render.ts";
import { segmentExtension } from "../render-segment.ts";
import { runFarmJob, type FarmJobSettings } from "./run-farm-job.ts";
import { uploadFinishedRender } from "./upload-finished-render.ts";
import { logDebug } from "../system/debug-log.ts";
import { settled } from "../../../core/settled.ts";
import { stageTools } from "../system/stage-tools.ts";

export function runJoinJob(client: NodeClient, job: Job, settings: FarmJobSettings): Promise<{ ok: boolean; error?: string }> {
  return runFarmJob(client, job, settings, async ({ work, signal, onLine, progress, stage }) => {
    const joinOptions = JoinJobOptionsSchema.parse(job.options);
    const options = resolveRender(joinOptions.render);
    const projectDir = join(work, "project");
    await client.downloadFiles(job.id, projectDir, signal);
    // The sound needs only the project's files and the plan: it is mixed while the segments download.
    const binaries = settings.binaries ?? (await resolveBinaries());
    const bounds = settings.limits?.bounds ?? DEFAULT_STAGE_BOUNDS;
    const mixing = mixAudioTrack({
      projectDir, format: options.format, quality: options.quality, plan: joinOptions.plan, work, strict: options.strict,
      tools: stageTools(binaries, bounds, signal), onLine, onFinding: (finding) => onLine(formatFindingLine(finding)),
    });
    // Awaited below (or on a failed download): not an unhandled rejection meanwhile.
    void settled(mixing);
    const segmentPaths: string[] = [];
    try {
      for (const index of joinOptions.segments) {
        const path = join(work, `segment-${index}.${segmentExtension(options.format)}`);
        await client.downloadSegment(job.id, index, path, signal);
        segmentPaths.push(path);
      }
    } catch (error) {
      // The mix writes into the job's scratch folder: it ends before the folder goes.
      await mixing.catch((mixError: unknown) => logDebug(`job ${job.id}: the audio mix failed too; the download's error is the one reported`, mixError));
      throw error;
    }
    const audio = await mixing;
    onLine(`downloaded ${segmentPaths.length} segments; joining`);
    progress(joinOptions.plan.frames, joinOptions.plan.frames, null, null, "joining");
    const output = join(work, `joined.${options.format}`);
    const joined = await joinSegments({
      projectDir, options: joinOptions.render, plan: joinOptions.plan, segmentPaths, outputPath: output,
      strict: options.strict, binaries, bounds, signal, onLine, audio,
    });
    onLine(`joined: ${joined.frames} frames, ${joined.durationSeconds.toFixed(3)} s`);
    stage("uploading");
    // The output, and its poster made meanwhile at the moment the planning node settled (the Worker's copy of its plan).
    const tools = stageTools(binaries, bounds, signal);
    const { posterError } = await uploadFinishedRender(client, job, tools, { output, format: options.format, plan: joinOptions.plan, work }, onLine);
    return posterError === undefined ? "completed" : { posterError };
  });
}
