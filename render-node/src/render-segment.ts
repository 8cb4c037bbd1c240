// One node's share of a split render: exactly frames [fromFrame, toFrame) of the plan, as a video-only file with
// closed GOPs and a keyframe on its first frame, so segments from any nodes join with the concat demuxer unchanged.
import { writeFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { buildConcatList, ENCODER_SETTINGS } from "./encode/build-encode-args.ts";
import { withCaptureSession } from "./capture/capture-session.ts";
import { checkConcurrency } from "./capture/capture-options.ts";
import type { CaptureControls, SessionOptions } from "./capture/capture-options.ts";
import type { Format } from "../../core/render/render-options.ts";
import type { RenderPlan } from "./plan-render.ts";
import { encodeBound } from "./bounds/stage-bounds.ts";
import { trackProgress } from "./progress/track-progress.ts";
import type { Progress } from "./progress/track-progress.ts";

export interface RenderSegmentInput extends CaptureControls {
  projectDir: string;
  options: SessionOptions;
  plan: RenderPlan;
  fromFrame: number;
  /** Exclusive. */
  toFrame: number;
  outputPath: string;
  /** Browsers at once on this node; default one per core. */
  concurrency?: number | undefined;
  /** Frames of this segment done so far, of `total` = toFrame - fromFrame. */
  onProgress?: ((progress: Progress) => void) | undefined;
}

/** ffmpeg's muxer name for a segment: the container of the format's chunks. */
export const SEGMENT_MUXERS: Record<Format, string> = { mp4: "mp4", webm: "webm", mov: "mov", gif: "matroska", "png-sequence": "" };

/** The file extension a segment of `format` is stored with. */
export function segmentExtension(format: Format): string {
  return ENCODER_SETTINGS[format].standard.chunkExtension;
}

export async function renderSegment(input: RenderSegmentInput): Promise<{ outputPath: string; frames: number; size: number }> {
  const { plan, fromFrame, toFrame } = input;
  if (!Number.isInteger(fromFrame) || !Number.isInteger(toFrame) || fromFrame < 0 || toFrame <= fromFrame || toFrame > plan.frames) {
    throw new Error(`segment frames [${fromFrame}, ${toFrame}) are not a range of the plan's ${plan.frames} frames`);
  }
  // The Worker never splits a png-sequence (worker/renders/split-plan.ts): its frames are files, not one stream.
  if (input.options.format === "png-sequence") throw new Error("a png-sequence render is rendered whole, never in segments");
  const concurrency = checkConcurrency(input.concurrency);
  // The plan's rate, exactly: every node renders the same frames whatever the page declares.
  const options = { ...input.options, fps: plan.fpsText, composition: plan.composition };
  return withCaptureSession({ ...input, options }, async (session) => {
    const alphaDiffers = plan.alpha !== undefined && plan.alpha !== session.alpha;
    if (session.frames !== plan.frames || session.viewport.outputWidth !== plan.width || session.viewport.outputHeight !== plan.height || alphaDiffers) {
      const alpha = (on: boolean | undefined) => (on ? " with alpha" : "");
      throw new Error(
        `the composition is not the one planned: ${session.frames} frames at ${session.viewport.outputWidth}x${session.viewport.outputHeight}${alpha(session.alpha)}` +
          `, the plan has ${plan.frames} at ${plan.width}x${plan.height}${alpha(plan.alpha)}`,
      );
    }
    const frames = toFrame - fromFrame;
    session.onLine(`segment: frames ${fromFrame + 1} to ${toFrame} of ${plan.frames}`);
    const frameDone = trackProgress(frames, (p) => input.onProgress?.(p), session.onLine);
    const chunks = await session.capture({ start: fromFrame, end: toFrame }, concurrency, frameDone);
    // The browsers' chunks become one file (a remux, no encode): what the join and the Worker handle is one file per segment.
    const listFile = join(session.work, "chunks.txt");
    await writeFile(listFile, buildConcatList(chunks));
    const seconds = (frames * plan.fps.den) / plan.fps.num;
    const args = [
      "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "concat", "-safe", "0", "-i", listFile,
      "-map", "0:v", "-an", "-c", "copy", "-f", SEGMENT_MUXERS[session.options.format], input.outputPath,
    ];
    await session.tools.run(session.tools.binaries.ffmpeg, args, {
      bound: { ms: encodeBound(session.tools.bounds, seconds), stage: "encoding: writing the segment" },
    }).done;
    const { size } = await stat(input.outputPath);
    return { outputPath: input.outputPath, frames, size };
  });
}
