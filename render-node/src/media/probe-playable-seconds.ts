// How long a video file plays, read with ffprobe: a looping clip's cycle, and what bounds a clip's frames when a
// plan is over the frame budget (plan-video-extractions.ts).
import type { StageTools } from "../system/stage-tools.ts";

/**
 * How long a file plays, as HyperFrames times a loop (its resolvePlayableVideoDuration): the video stream's start
 * plus its duration, else the container's duration; null when ffprobe says neither.
 */
export async function probePlayableSeconds(tools: StageTools, file: string): Promise<number | null> {
  const args = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_time,duration:format=duration", "-of", "json", file];
  const out = await tools.run(tools.binaries.ffprobe, args, { bound: { ms: tools.bounds.encodeMs, stage: "probing a video's length" } }).done;
  const probe = JSON.parse(out) as { streams?: { start_time?: string; duration?: string }[]; format?: { duration?: string } };
  const stream = probe.streams?.[0];
  const streamSeconds = Number(stream?.duration);
  if (Number.isFinite(streamSeconds) && streamSeconds > 0) return Math.max(0, Number(stream?.start_time) || 0) + streamSeconds;
  const formatSeconds = Number(probe.format?.duration);
  return Number.isFinite(formatSeconds) && formatSeconds > 0 ? formatSeconds : null;
}
