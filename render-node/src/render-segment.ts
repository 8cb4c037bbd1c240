// One node's share of a split render: exactly frames [fromFrame, toFrame) of the plan, as a video-only file with
// closed GOPs and a keyframe on its first frame, so segments from any nodes join with the concat demuxer unchanged.
import { writeFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { buildConcatList, ENCODER_SETTINGS } from "./encode/build-encode-args.ts";
import { withCaptureSession } from "./capture/capture-session.ts";
import { captureFrames } from "./capture/capture-frames.ts";
import { checkConcurrency, resolveRequest } from "./capture/capture-options.ts";
import { planComposition } from "./plan-render.ts";
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
  const request = resolveRequest({ ...input.options, fps: plan.fpsText, composition: plan.composition }, input.strict);
  return withCaptureSession(input, async (session) => {
    // The same plan stage as the whole render's: the composition read as the planning node read it. The range's
    // browsers start in the capture, once it is known how many it is worth.
    const planned = await planComposition(request, session);
    const { options, viewport, alpha } = planned;
    const frameCount = planned.plan.frames;
    const alphaDiffers = plan.alpha !== undefined && plan.alpha !== alpha;
    const firstDiffers = (planned.plan.firstFrame ?? 0) !== (plan.firstFrame ?? 0);
    if (frameCount !== plan.frames || firstDiffers || viewport.outputWidth !== plan.width || viewport.outputHeight !== plan.height || alphaDiffers) {
      const withAlpha = (on: boolean | undefined) => (on ? " with alpha" : "");
      const from = (first: number | undefined) => (first ? ` from frame ${first}` : "");
      throw new Error(
        `the composition is not the one planned: ${frameCount} frames${from(planned.plan.firstFrame)} at ${viewport.outputWidth}x${viewport.outputHeight}${withAlpha(alpha)}` +
          `, the plan has ${plan.frames}${from(plan.firstFrame)} at ${plan.width}x${plan.height}${withAlpha(plan.alpha)}`,
      );
    }
    const frames = toFrame - fromFrame;
    // The segment's frames count from the output's first: a range render's (from/to) sit later on the page's clock.
    const first = plan.firstFrame ?? 0;
    session.onLine(`segment: frames ${fromFrame + 1} to ${toFrame} of ${plan.frames}${first ? ` (the composition's ${first + fromFrame + 1} to ${first + toFrame})` : ""}`);
    const frameDone = trackProgress(frames, (p) => input.onProgress?.(p), session.onLine);
    const chunks = await captureFrames(session, {
      range: { start: first + fromFrame, end: first + toFrame }, frames: planned.compositionFrames, outputStart: first, options, viewport, alpha, transitions: planned.transitions,
      page: planned.page, first: planned.first, concurrency, onFrame: frameDone,
    });
    // The browsers' chunks become one file (a remux, no encode): what the join and the Worker handle is one file per segment.
    const listFile = join(session.work, "chunks.txt");
    await writeFile(listFile, buildConcatList(chunks));
    const seconds = (frames * plan.fps.den) / plan.fps.num;
    const args = [
      "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "concat", "-safe", "0", "-i", listFile,
      "-map", "0:v", "-an", "-c", "copy", "-f", SEGMENT_MUXERS[options.format], input.outputPath,
    ];
    await session.tools.run(session.tools.binaries.ffmpeg, args, {
      bound: { ms: encodeBound(session.tools.bounds, seconds), stage: "encoding: writing the segment" },
    }).done;
    const { size } = await stat(input.outputPath);
    return { outputPath: input.outputPath, frames, size };
  });
}
