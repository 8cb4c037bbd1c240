// A render's poster: the frame at the moment its plan settled (the root's data-poster-time, else HyperFrames'
// paused-preview moment: core/composition/poster-time.ts), taken from the rendered output itself with ffmpeg, so the
// poster is exactly a frame of the file the user downloads. No HTML is read here: the plan read it once.
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { PosterMoment } from "../../../core/composition/poster-time.ts";
import type { Format } from "../../../core/render/render-options.ts";
import { isNotFound } from "../system/debug-log.ts";
import type { StageTools } from "../system/stage-tools.ts";
import { extractZipFrame } from "./extract-zip-frame.ts";

/** The poster is a JPEG at the output's size (alpha, where the output has it, is dropped). */
export const POSTER_CONTENT_TYPE = "image/jpeg";
export const POSTER_FILE = "poster.jpg";

/** JPEG quality on ffmpeg's 2 (best) to 31 scale. */
const POSTER_QSCALE = "3";

/** What the poster needs to know of the render: its output, the video's rate, and the moment the plan settled. */
export interface PosterInput {
  output: string;
  format: Format;
  fps: number;
  moment: PosterMoment;
  work: string;
}

export interface Poster extends PosterMoment {
  path: string;
}

export async function makePoster(tools: StageTools, input: PosterInput): Promise<Poster> {
  const { frame, seconds } = input.moment;
  const path = join(input.work, POSTER_FILE);
  const bound = { ms: tools.bounds.encodeMs, stage: "making the poster" };
  if (input.format !== "png-sequence") {
    await tools.run(tools.binaries.ffmpeg, videoPosterArgs(input.output, frame, input.fps, path), { bound }).done;
  } else {
    // A png-sequence is a zip of frames: the frame is taken out of it, then made a JPEG like a video's.
    const still = join(input.work, "poster-frame.png");
    await extractZipFrame(input.output, frame, still, tools.signal);
    await tools.run(tools.binaries.ffmpeg, imagePosterArgs(still, path), { bound }).done;
  }
  // ffmpeg ends with success when it decoded no frame at that time ("Output file is empty"): no file, no poster.
  const written = await stat(path).catch((error: unknown) => {
    if (isNotFound(error)) return null;
    throw error;
  });
  if (!written?.size) throw new Error(`ffmpeg found no frame at ${seconds} s of the output`);
  return { ...input.moment, path };
}

// ffmpeg's arguments (pure; the numbers are formatted here, on the command line only).

/**
 * Frame `frame` of a video at `fps`: an accurate seek (ffmpeg decodes from the keyframe before and drops every frame
 * shown before the time), to a quarter frame before the frame's own time, so rounding never lands on the next one.
 * By time, as a player shows it: the same frame in every format, a GIF's included, whatever its coded frames.
 */
export function videoPosterArgs(input: string, frame: number, fps: number, output: string): string[] {
  const seek = Math.max(0, (frame - 0.25) / fps);
  return ["-hide_banner", "-loglevel", "error", "-ss", seek.toFixed(6), "-i", input, "-map", "0:v:0", "-frames:v", "1", "-q:v", POSTER_QSCALE, "-y", output];
}

/** One still image (a png-sequence's frame) as the poster. */
export function imagePosterArgs(input: string, output: string): string[] {
  return ["-hide_banner", "-loglevel", "error", "-i", input, "-frames:v", "1", "-q:v", POSTER_QSCALE, "-y", output];
}
