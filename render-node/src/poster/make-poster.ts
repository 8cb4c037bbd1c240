// A render's poster: the frame its composition names (data-poster-time on the root) or, without one, the moment
// HyperFrames shows a paused composition at (core/composition/poster-time.ts), taken from the rendered output
// itself with ffmpeg, so the poster is exactly a frame of the file the user downloads.
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Format } from "../../../core/render/render-options.ts";
import { findRootElement } from "../../../core/composition/find-root-element.ts";
import { parseSeconds } from "../../../core/composition/parse-number-attribute.ts";
import { choosePosterTime, posterFrame, readPosterTime, type DeclaredPosterTime } from "../../../core/composition/poster-time.ts";
import { parseHtml, readAttribute } from "../../../core/html/parse-html.ts";
import { isNotFound } from "../system/debug-log.ts";
import type { StageTools } from "../system/stage-tools.ts";
import { extractZipFrame } from "./extract-zip-frame.ts";
import { imagePosterArgs, POSTER_FILE, videoPosterArgs } from "./poster-args.ts";

/** What the poster needs to know of the render: its output and the video's frames as the plan settled them. */
export interface PosterInput {
  output: string;
  format: Format;
  frames: number;
  fps: number;
  durationSeconds: number;
  /** A range render's first frame on the composition's clock (0 for a whole render): data-poster-time is on that clock. */
  firstFrame: number;
  /** The composition's file, whose root may declare data-poster-time. */
  compositionPath: string;
  work: string;
}

export interface Poster {
  path: string;
  seconds: number;
  frame: number;
  /** How the moment was chosen, for the render's log. */
  why: string;
}

/** The root's data-poster-time, read from the composition file (null when absent or when the file has no root). */
export async function readDeclaredPosterTime(compositionPath: string): Promise<DeclaredPosterTime> {
  const root = findRootElement(parseHtml(await readFile(compositionPath, "utf8")));
  return root ? readPosterTime(root, parseSeconds(readAttribute(root, "data-duration"))) : null;
}

export async function makePoster(tools: StageTools, input: PosterInput): Promise<Poster> {
  const declared = await readDeclaredPosterTime(input.compositionPath);
  // data-poster-time is on the composition's clock; a range's output shows it from its first frame.
  const start = input.firstFrame / input.fps;
  const seconds = choosePosterTime(declared, input.durationSeconds, start);
  const frame = posterFrame(seconds, input.fps, input.frames);
  const why = declared && "seconds" in declared && declared.seconds - start === seconds
    ? `data-poster-time="${declared.seconds}"`
    : declared && "invalid" in declared ? `data-poster-time="${declared.invalid}" is not a time within the video, so the default moment` : "the default moment";
  const path = join(input.work, POSTER_FILE);
  const bound = { ms: tools.bounds.encodeMs, stage: "making the poster" };
  if (input.format === "png-sequence") {
    const still = join(input.work, "poster-frame.png");
    await extractZipFrame(input.output, frame, still, tools.signal);
    await tools.run(tools.binaries.ffmpeg, imagePosterArgs(still, path), { bound }).done;
  } else {
    await tools.run(tools.binaries.ffmpeg, videoPosterArgs(input.output, frame, input.fps, path), { bound }).done;
  }
  // ffmpeg ends with success when it decoded no frame at that time ("Output file is empty"): no file, no poster.
  const written = await stat(path).catch((error: unknown) => {
    if (isNotFound(error)) return null;
    throw error;
  });
  if (!written?.size) throw new Error(`ffmpeg found no frame at ${seconds} s of the output`);
  return { path, seconds, frame, why };
}
