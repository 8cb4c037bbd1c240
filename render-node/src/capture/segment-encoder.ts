// One fixed segment's encoder (core/render/segment-plan.ts): an ffmpeg of its own reading the segment's frames on
// stdin (buildChunkArgs) and writing its file. The browsers capturing the segment hand it their frames through
// segment-shares.ts, in frame order; each hand-over is bounded at ffmpeg's pace, its flush by the segment's share of
// the encode bound.
import type { StageTools } from "../system/stage-tools.ts";
import { encodeBound } from "../bounds/stage-bounds.ts";
import { ffmpegBound, seconds } from "../bounds/deadline.ts";
import type { Fps } from "../plan/resolve-render.ts";
import { logDebug } from "../system/debug-log.ts";
import { settled } from "../../../core/settled.ts";
import type { FrameRange } from "./split-frame-ranges.ts";

export interface SegmentEncoder {
  /**
   * Hands bytes to ffmpeg; fails with `message` (the frame's name) when ffmpeg, at its pace, has not taken them within
   * the frame bound. Resolves at once when ffmpeg has died (see failure).
   */
  hand(data: Buffer, message: () => string): Promise<void>;
  /** ffmpeg's failure once it has died, else null: the browsers stop capturing into it. */
  failure(): unknown;
  /** Every frame handed: ffmpeg finishes the file; resolves once it has, fails with ffmpeg's own words. */
  finish(): Promise<void>;
  /** The capture failed: stdin ends, the file is never used (the session's signal kills ffmpeg). */
  abandon(): void;
}

function write(stream: NodeJS.WritableStream, data: Buffer): Promise<void> {
  return new Promise((resolveWrite, reject) => {
    const ok = stream.write(data, (error) => {
      if (error) reject(error);
    });
    if (ok) resolveWrite();
    else stream.once("drain", () => resolveWrite());
  });
}

/** Starts the encoder of the segment of frames `range` (`ffmpegArgs`: frames on stdin, the file) at the render's rate. */
export function startSegmentEncoder(tools: StageTools, segment: { range: FrameRange; ffmpegArgs: string[] }, fps: Fps): SegmentEncoder {
  const { range } = segment;
  const encoder = tools.run(tools.binaries.ffmpeg, segment.ffmpegArgs, { stdin: "pipe" });
  const stdin = encoder.stdin;
  if (!stdin) throw new Error("ffmpeg has no stdin");
  // An ffmpeg that dies breaks the pipe: that is reported through `done` with ffmpeg's own words, so the pipe's
  // EPIPE is only said at debug level.
  stdin.on("error", (error) => logDebug("ffmpeg's stdin closed", error));
  let failed: unknown = null;
  encoder.done.catch((error: unknown) => {
    failed = error;
  });
  const flushMs = encodeBound(tools.bounds, ((range.end - range.start) * fps.den) / fps.num);
  // Slow is not hung: ffmpeg, busy with frames queued before, gets up to the segment's bound to take the next one.
  const handBound = ffmpegBound(tools.bounds.frameMs, flushMs, encoder.pid);
  return {
    hand: (data, message) => tools.paced(Promise.race([write(stdin, data), settled(encoder.done)]), handBound, message),
    failure: () => failed,
    finish: () => {
      stdin.end();
      // ffmpeg flushes what it holds once stdin ends; the segment's share of the video bounds it like any encode
      // step. Paced too: an ffmpeg still working through its queue on a loaded machine gets up to three times it.
      const flushBound = ffmpegBound(flushMs, 3 * flushMs, encoder.pid);
      return tools.paced(encoder.done, flushBound, () => `encoding: finishing the segment of frames ${range.start + 1} to ${range.end} did not finish in ${seconds(flushMs)}`)
        .then(() => undefined);
    },
    abandon: () => {
      stdin.end();
    },
  };
}
