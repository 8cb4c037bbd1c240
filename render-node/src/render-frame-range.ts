// One browser's share of a render: seek, capture and pipe each frame of a contiguous range into its own ffmpeg.
import type { CaptureBrowser } from "./launch-capture-browser.ts";
import type { StudioWindow } from "./composition-info.ts";
import { captureFrame } from "./capture-frame.ts";
import type { FrameClock } from "./capture-frame.ts";
import { frameTime } from "./count-frames.ts";
import type { FrameRange } from "./split-frame-ranges.ts";
import type { Fps } from "./parse-render-options.ts";
import { runTool } from "./run-tool.ts";

export interface FrameRangeJob {
  capture: CaptureBrowser;
  range: FrameRange;
  fps: Fps;
  jpegQuality: number;
  ffmpeg: string;
  /** From buildChunkArgs: reads JPEGs on stdin, writes the chunk. */
  ffmpegArgs: string[];
  signal: AbortSignal;
  onFrame: () => void;
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

/** Renders frames [range.start, range.end) into one chunk file. */
export async function renderFrameRange(job: FrameRangeJob): Promise<void> {
  const encoder = runTool(job.ffmpeg, job.ffmpegArgs, job.signal, { stdin: "pipe" });
  const stdin = encoder.stdin;
  if (!stdin) throw new Error("ffmpeg has no stdin");
  stdin.on("error", () => {}); // an ffmpeg that dies reports through `done`
  const interval = (1000 * job.fps.den) / job.fps.num;
  const clock: FrameClock = { interval };
  const { page } = job.capture;
  let previous: Buffer | null = null;
  let encoderFailed: unknown = null;
  encoder.done.catch((error: unknown) => {
    encoderFailed = error;
  });
  try {
    for (let index = job.range.start; index < job.range.end; index++) {
      job.signal.throwIfAborted();
      if (encoderFailed) break;
      const time = frameTime(index, job.fps);
      await page.evaluate((t: number) => (window as unknown as StudioWindow).__studio.seek(t), time);
      let frame = await captureFrame(job.capture, clock, job.jpegQuality);
      // beginFrame returns no image when nothing changed on screen; the first frame must exist, so ask again.
      for (let retry = 0; !frame && !previous && retry < 3; retry++) frame = await captureFrame(job.capture, clock, job.jpegQuality);
      const bytes: Buffer | null = frame ?? previous;
      if (!bytes) throw new Error(`frame ${index}: Chromium produced no image`);
      previous = bytes;
      await Promise.race([write(stdin, bytes), encoder.done.then(() => undefined, () => undefined)]);
      job.onFrame();
    }
  } finally {
    stdin.end();
  }
  await encoder.done;
}
