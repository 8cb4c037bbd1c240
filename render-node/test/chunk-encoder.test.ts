// The chunk encoder encodes frames as they arrive (issue 24, item 2): real ffmpeg fed 1080p JPEGs the way a capture
// feeds it. With ffmpeg's default probing it buffered 5 MB of input (a whole 1080p chunk) before encoding the first
// frame, so a chunk was encoded after its frames were captured, and renders ended with seconds of "finishing chunks".
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { buildChunkArgs } from "../src/encode/build-encode-args.ts";
import { imageSize, ivfFrameHeader, ivfHeader } from "../src/encode/ivf-stream.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** `count` 1920x1080 JPEGs of a busy test pattern (about 90 KB each), as Chromium would hand them over. */
async function jpegFrames(ffmpeg: string, count: number, dir: string): Promise<Buffer[]> {
  const file = join(dir, "frames.mjpeg");
  await runTool(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-frames:v", String(count), "-q:v", "4", "-f", "image2pipe", "-c:v", "mjpeg", file], new AbortController().signal).done;
  const data = await readFile(file);
  const frames: Buffer[] = [];
  let start = 0;
  for (let i = 2; i + 1 < data.length; i++) {
    if (data[i] === 0xff && data[i + 1] === 0xd8 && data[i - 2] === 0xff && data[i - 1] === 0xd9) {
      frames.push(data.subarray(start, i));
      start = i;
    }
  }
  frames.push(data.subarray(start));
  return frames;
}

it("encodes and writes the first frames while the chunk's later frames have not arrived yet", async () => {
  const { ffmpeg } = await resolveBinaries();
  const dir = await mkdtemp(join(tmpdir(), "studio-chunk-"));
  dirs.push(dir);
  const frames = await jpegFrames(ffmpeg, 40, dir);
  expect(frames.length).toBe(40);
  // Less than ffmpeg's 5 MB probe: with probing, nothing would be decoded yet.
  expect(frames.reduce((n, f) => n + f.length, 0)).toBeLessThan(5_000_000);
  const output = join(dir, "chunk.mp4");
  const controller = new AbortController();
  const encoder = runTool(ffmpeg, buildChunkArgs({ format: "mp4", quality: "draft", fpsText: "30", gopFrames: 60, output }), controller.signal, { stdin: "pipe" });
  encoder.done.catch(() => {});
  encoder.stdin!.write(ivfHeader({ image: "jpeg", width: 1920, height: 1080, fps: { num: 30, den: 1 } }));
  frames.forEach((frame, i) => encoder.stdin!.write(Buffer.concat([ivfFrameHeader(frame.length, i), frame])));
  // stdin stays open, as while a browser is still capturing: the encoded frames reach the file meanwhile.
  let size = 0;
  for (let waited = 0; waited < 60_000 && size < 100_000; waited += 200) {
    await new Promise((r) => setTimeout(r, 200));
    size = (await stat(output).catch(() => null))?.size ?? 0;
  }
  expect(size).toBeGreaterThanOrEqual(100_000);
  encoder.stdin!.end();
  await encoder.done;
}, 120_000);

/** Every decoded frame's MD5, in order. */
async function frameMd5(ffmpeg: string, file: string): Promise<string[]> {
  const text = await runTool(ffmpeg, ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"], new AbortController().signal).done;
  return text.split("\n").filter((l) => l && !l.startsWith("#")).map((l) => l.split(",").at(-1)!.trim());
}

/** Encodes `sent` ([frame number, image]) as one chunk of `format` and returns its decoded frames' MD5s. */
async function encodeTimed(ffmpeg: string, dir: string, format: "mp4" | "webm" | "mov", name: string, sent: [number, Buffer][]): Promise<string[]> {
  const output = join(dir, `${name}.${format}`);
  const encoder = runTool(ffmpeg, buildChunkArgs({ format, quality: "draft", fpsText: "30", gopFrames: 60, output }), new AbortController().signal, { stdin: "pipe" });
  encoder.stdin!.write(ivfHeader({ image: "jpeg", width: 1920, height: 1080, fps: { num: 30, den: 1 } }));
  for (const [pts, image] of sent) encoder.stdin!.write(Buffer.concat([ivfFrameHeader(image.length, pts), image]));
  encoder.stdin!.end();
  await encoder.done;
  return frameMd5(ffmpeg, output);
}

// Frame reuse's holds cost the encoder one picture, not one per frame: a hold is sent as its first and last frame,
// and the chunk must hold every frame, decoded exactly as if each had been sent (mp4, and webm, whose Matroska
// container would otherwise keep the gap as a longer frame).
it("fills a hold sent as its first and last frame with the same pictures as a hold sent in full", async () => {
  const { ffmpeg } = await resolveBinaries();
  const dir = await mkdtemp(join(tmpdir(), "studio-chunk-hold-"));
  dirs.push(dir);
  const [a, b, c] = await jpegFrames(ffmpeg, 3, dir);
  // Frames 0-9 hold a, 10 is b, 11-24 hold c, sent as render-frame-range.ts sends them: a hold's first and last
  // frame, and the chunk's last two frames always.
  const full: [number, Buffer][] = Array.from({ length: 25 }, (_, i) => [i, i < 10 ? a! : i === 10 ? b! : c!]);
  const held: [number, Buffer][] = [[0, a!], [9, a!], [10, b!], [11, c!], [22, c!], [23, c!], [24, c!]];
  for (const format of ["mp4", "webm"] as const) {
    const expected = await encodeTimed(ffmpeg, dir, format, `full-${format}`, full);
    expect(expected).toHaveLength(25);
    expect(await encodeTimed(ffmpeg, dir, format, `held-${format}`, held)).toEqual(expected);
  }
}, 120_000);

// The IVF header states the frames' own size, read from the first image: with a resolution preset Chromium's images
// come at the page's size and ffmpeg scales them, and a header stating the output size made ffmpeg's decoder fail
// every other frame (a 2 s square render had 58 frames of 60).
it("reads an image's own size, and a chunk scaled to another size keeps every frame", async () => {
  const { ffmpeg } = await resolveBinaries();
  const dir = await mkdtemp(join(tmpdir(), "studio-chunk-size-"));
  dirs.push(dir);
  const frames = await jpegFrames(ffmpeg, 12, dir);
  expect(imageSize(frames[0]!)).toEqual({ width: 1920, height: 1080 });
  const png = join(dir, "one.png");
  await runTool(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=320x182", "-frames:v", "1", png], new AbortController().signal).done;
  expect(imageSize(await readFile(png))).toEqual({ width: 320, height: 182 });
  expect(imageSize(Buffer.from("not an image"))).toBeNull();

  const output = join(dir, "square.mp4");
  const fit = { width: 1080, height: 1080 };
  const encoder = runTool(ffmpeg, buildChunkArgs({ format: "mp4", quality: "draft", fpsText: "30", gopFrames: 60, output, fit }), new AbortController().signal, { stdin: "pipe" });
  encoder.stdin!.write(ivfHeader({ image: "jpeg", ...imageSize(frames[0]!)!, fps: { num: 30, den: 1 } }));
  frames.forEach((image, pts) => encoder.stdin!.write(Buffer.concat([ivfFrameHeader(image.length, pts), image])));
  encoder.stdin!.end();
  await encoder.done;
  expect(await frameMd5(ffmpeg, output)).toHaveLength(12);
}, 120_000);
