// The chunk encoder encodes frames as they arrive (issue 24, item 2): real ffmpeg fed 1080p JPEGs the way a capture
// feeds it. With ffmpeg's default probing it buffered 5 MB of input (a whole 1080p chunk) before encoding the first
// frame, so a chunk was encoded after its frames were captured, and renders ended with seconds of "finishing chunks".
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { buildChunkArgs } from "../src/build-encode-args.ts";
import { resolveBinaries } from "../src/resolve-binaries.ts";
import { runTool } from "../src/run-tool.ts";

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
  for (const frame of frames) encoder.stdin!.write(frame);
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
