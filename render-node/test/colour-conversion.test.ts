// The colour conversion of captured frames, run through the real ffmpeg: what the mp4/webm chunk encoder's `-vf`
// makes of a JPEG must be byte for byte what HyperFrames 0.8.170 makes of it (its producer converts JPEG → RGB with
// nearest chroma → BT.709 limited range in two swscale passes). A difference here shows up as frames a level darker
// or lighter than the reference's in bench/parity.ts.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildChunkArgs } from "../src/build-encode-args.ts";
import { resolveBinaries } from "../src/resolve-binaries.ts";
import { runTool } from "../src/run-tool.ts";

/** HyperFrames' SDR capture filter (hyperframes/dist, SDR_CAPTURE_TO_BT709_FILTER), as the reference to match. */
const HYPERFRAMES_CAPTURE_FILTER =
  "scale=in_color_matrix=bt601:in_range=pc:flags=neighbor+accurate_rnd,format=gbrp," +
  "scale=out_color_matrix=bt709:out_range=tv:flags=neighbor,format=yuv420p";

const WIDTH = 320;
const HEIGHT = 180;

/** Grey ramp below, a colour ramp above, a saturated block and sharp edges: what text and gradients are made of. */
function testImage(): Buffer {
  const rgb = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const i = (y * WIDTH + x) * 3;
      const ramp = Math.round((x / (WIDTH - 1)) * 255);
      const block = x > 200 && x < 260 && y > 20 && y < 80;
      const stripe = x % 7 < 2;
      rgb[i] = block ? 230 : y < HEIGHT / 2 ? 255 - ramp : ramp;
      rgb[i + 1] = block ? 20 : stripe && y > HEIGHT / 2 ? 250 : ramp;
      rgb[i + 2] = block ? 60 : y < HEIGHT / 2 ? Math.round(ramp / 2) + 60 : ramp;
    }
  }
  return rgb;
}

const binaries = await resolveBinaries();
const signal = new AbortController().signal;
let dir = "";

const ffmpeg = (args: string[]) => runTool(binaries.ffmpeg, ["-v", "error", "-y", ...args], signal).done;

/** The chunk encoder's video filter for a format and quality. */
function chunkFilter(format: "mp4" | "webm", quality: "draft" | "standard" | "high"): string {
  const args = buildChunkArgs({ format, quality, fpsText: "30", gopFrames: 60, output: "x" });
  return args[args.indexOf("-vf") + 1]!;
}

async function convert(jpeg: string, filter: string, name: string): Promise<Buffer> {
  const out = join(dir, `${name}.yuv`);
  await ffmpeg(["-i", jpeg, "-vf", filter, "-f", "rawvideo", out]);
  return readFile(out);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "colour-"));
  await writeFile(join(dir, "source.rgb"), testImage());
  // Chromium hands over 4:2:0 full-range JPEGs; ffmpeg's mjpeg encoder makes the same kind.
  await ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${WIDTH}x${HEIGHT}`, "-i", join(dir, "source.rgb"), "-q:v", "3", "-pix_fmt", "yuvj420p", join(dir, "frame.jpg")]);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("colour conversion of captured frames", () => {
  it("gives HyperFrames' bytes for every quality of mp4 and webm", async () => {
    const jpeg = join(dir, "frame.jpg");
    const reference = await convert(jpeg, HYPERFRAMES_CAPTURE_FILTER, "reference");
    expect(reference.length).toBe((WIDTH * HEIGHT * 3) / 2);
    for (const format of ["mp4", "webm"] as const) {
      for (const quality of ["draft", "standard", "high"] as const) {
        const ours = await convert(jpeg, chunkFilter(format, quality), `${format}-${quality}`);
        const differing = ours.reduce((n, byte, i) => n + (byte === reference[i] ? 0 : 1), 0);
        expect({ format, quality, differing }).toEqual({ format, quality, differing: 0 });
      }
    }
  });

  it("is not the plain YUV-to-YUV conversion, which comes out a level darker", async () => {
    // Guards the test above: on this image the two conversions really differ, so equality there means something.
    const jpeg = join(dir, "frame.jpg");
    const reference = await convert(jpeg, HYPERFRAMES_CAPTURE_FILTER, "reference");
    const plain = await convert(jpeg, "scale=out_color_matrix=bt709:out_range=tv:flags=bilinear+accurate_rnd,format=yuv420p", "plain");
    const lumaBytes = WIDTH * HEIGHT;
    let signed = 0;
    for (let i = 0; i < lumaBytes; i++) signed += plain[i]! - reference[i]!;
    expect(signed / lumaBytes).toBeLessThan(-0.3);
  });
});
