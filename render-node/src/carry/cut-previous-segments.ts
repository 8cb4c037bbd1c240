// The previous render's output cut back into its fixed segments, by stream copy (nothing decoded or encoded): each
// segment was its own encode starting on a keyframe, and the join only copied them, so cutting at the segments'
// first frames gives back each segment's own packets, ready to be joined again with the segments captured now.
// No segment is stored apart: a render keeps one file in R2, and the cut costs one ffmpeg copy of the video stream.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { StageTools } from "../system/stage-tools.ts";
import { encodeBound } from "../bounds/stage-bounds.ts";

/** The container each carried format's segments are cut into: the one its chunks are written in. */
const SEGMENT_FORMAT = { mp4: "mp4", webm: "webm", mov: "mov" } as const;

export type CarriedFormat = keyof typeof SEGMENT_FORMAT;

/** Whether a render of this format can carry segments (a GIF is encoded whole at the join, a png-sequence zipped). */
export function carriesSegments(format: string): format is CarriedFormat {
  return format in SEGMENT_FORMAT;
}

/** ffmpeg's arguments: the video stream of `input` cut before each output frame in `cuts`, into `dir`. Pure. */
export function cutArgs(input: string, format: CarriedFormat, cuts: number[], dir: string): string[] {
  return [
    "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
    "-i", input, "-map", "0:v:0", "-c", "copy",
    "-f", "segment", "-segment_format", SEGMENT_FORMAT[format],
    ...(cuts.length > 0 ? ["-segment_frames", cuts.join(",")] : []),
    "-reset_timestamps", "1",
    join(dir, `segment-%05d.${SEGMENT_FORMAT[format]}`),
  ];
}

/**
 * Cuts `previousOutput` (`seconds` long) at output frames `cuts` (each a segment's first, in order) into `dir`
 * and returns the pieces in order: piece i holds the frames from cuts[i-1] (0 for the first) to cuts[i].
 */
export async function cutPreviousSegments(tools: StageTools, input: {
  previousOutput: string; format: CarriedFormat; cuts: number[]; dir: string; seconds: number;
}): Promise<string[]> {
  const args = cutArgs(input.previousOutput, input.format, input.cuts, input.dir);
  await tools.run(tools.binaries.ffmpeg, args, { bound: { ms: encodeBound(tools.bounds, input.seconds), stage: "encoding: cutting the previous render into its segments" } }).done;
  const pieces = (await readdir(input.dir)).filter((name) => name.startsWith("segment-")).sort();
  if (pieces.length !== input.cuts.length + 1) {
    throw new Error(`the previous render cut into ${pieces.length} pieces, not ${input.cuts.length + 1}: its keyframes are not where its segments start`);
  }
  return pieces.map((name) => join(input.dir, name));
}
