// The colour conversion of captured frames, run through the real ffmpeg: what the mp4/webm chunk encoder's `-vf`
// makes of a JPEG must be what HyperFrames 0.8.170 makes of it (its producer converts JPEG → RGB with nearest chroma
// → BT.709 limited range in two swscale passes), byte for byte. A bias here shows up as frames a level darker or
// lighter than the reference's in bench/parity.ts: the colorspace filter used before rounded Chromium's JPEGs of dark
// colours a level lighter (#101828 as Y 36 where HyperFrames writes 35), about 1 MAD under every frame of the corpus.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildChunkArgs } from "../src/encode/build-encode-args.ts";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";

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

/** Per plane of a 4:2:0 frame: the mean signed difference (b − a), the mean absolute one and the largest. */
function planeDifferences(a: Buffer, b: Buffer, width: number, height: number) {
  const luma = width * height;
  const chroma = luma / 4;
  const planes = { y: [0, luma], u: [luma, chroma], v: [luma + chroma, chroma] } as const;
  return Object.fromEntries(Object.entries(planes).map(([name, [offset, length]]) => {
    let signed = 0, absolute = 0, max = 0;
    for (let i = offset; i < offset + length; i++) {
      const d = b[i]! - a[i]!;
      signed += d;
      absolute += Math.abs(d);
      max = Math.max(max, Math.abs(d));
    }
    return [name, { mean: signed / length, mad: absolute / length, max }];
  })) as Record<"y" | "u" | "v", { mean: number; mad: number; max: number }>;
}

describe("colour conversion of captured frames", () => {
  it("gives HyperFrames' bytes for every quality of mp4 and webm", async () => {
    const jpeg = join(dir, "frame.jpg");
    const reference = await convert(jpeg, HYPERFRAMES_CAPTURE_FILTER, "reference");
    expect(reference.length).toBe((WIDTH * HEIGHT * 3) / 2);
    for (const format of ["mp4", "webm"] as const) {
      for (const quality of ["draft", "standard", "high"] as const) {
        const ours = await convert(jpeg, chunkFilter(format, quality), `${format}-${quality}`);
        expect(ours.length).toBe(reference.length);
        // Even on this hard image (1-pixel stripes of saturated colour, where the colorspace filter was up to 18
        // levels off at edges) one accurate swscale pass is HyperFrames' two.
        const planes = planeDifferences(reference, ours, WIDTH, HEIGHT);
        for (const [plane, d] of Object.entries(planes)) expect(d.max, `${format} ${quality} ${plane}: mean ${d.mean.toFixed(3)}, max ${d.max}`).toBe(0);
      }
    }
  });

  it("renders a dark page with HyperFrames' colours: #101828 and #1e293b as it writes them", async () => {
    // Chromium's JPEG of #101828 holds Y 23 (BT.601 full range); HyperFrames 0.8.170 writes it as Y 35, U 136, V 124
    // (its render of bench/parity-corpus/shader-transition, whose background this is), #1e293b as 50, 137, 122.
    const project = join(dir, "dark");
    await mkdir(project, { recursive: true });
    await writeFile(join(project, "index.html"), `<!doctype html><html><head><meta charset="utf-8"><style>
html, body { margin: 0; width: 64px; height: 32px; overflow: hidden; background: #101828; }
#right { position: absolute; left: 32px; top: 0; width: 32px; height: 32px; background: #1e293b; }
</style></head><body><div data-composition-id="main" data-start="0" data-duration="0.2" data-width="64" data-height="32" data-fps="10">
<div id="right"></div></div></body></html>`);
    const outputPath = join(dir, "dark.mp4");
    await renderProject({ projectDir: project, outputPath, quality: "draft", concurrency: 1, binaries, signal });
    const yuv = join(dir, "dark.yuv");
    await ffmpeg(["-i", outputPath, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", yuv]);
    const planes = await readFile(yuv);
    const at = (x: number, y: number) => [planes[y * 64 + x], planes[64 * 32 + (y >> 1) * 32 + (x >> 1)], planes[64 * 32 * 1.25 + (y >> 1) * 32 + (x >> 1)]];
    expect({ left: at(8, 16), right: at(48, 16) }).toEqual({ left: [35, 136, 124], right: [50, 137, 122] });
  }, 60_000);

  it("is not the plain YUV-to-YUV conversion (default range and rounding), which comes out a level darker", async () => {
    // Guards the test above: on this image a conversion that is not HyperFrames' is visibly off.
    const jpeg = join(dir, "frame.jpg");
    const reference = await convert(jpeg, HYPERFRAMES_CAPTURE_FILTER, "reference");
    const plain = await convert(jpeg, "scale=out_color_matrix=bt709:out_range=tv:flags=bilinear+accurate_rnd,format=yuv420p", "plain");
    const y = planeDifferences(reference, plain, WIDTH, HEIGHT).y;
    expect(y.mean).toBeLessThan(-0.3);
    expect(y.mad).toBeGreaterThan(0.4);
  });

  it("converts frames of odd size (padded to even sides)", async () => {
    const odd = join(dir, "odd.jpg");
    await ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${WIDTH}x${HEIGHT}`, "-i", join(dir, "source.rgb"), "-vf", "crop=319:179:0:0", "-q:v", "3", "-pix_fmt", "yuvj420p", odd]);
    const ours = await convert(odd, chunkFilter("mp4", "standard"), "odd");
    expect(ours.length).toBe((320 * 180 * 3) / 2);
  });
});
