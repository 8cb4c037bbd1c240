// Output formats and encoder options with real renders (real Chromium, real ffmpeg), read back by ffprobe and by
// pixel: transparency in webm and mov (and not in mp4), png-sequence zips, transparent snapshots, a split render's
// alpha across the join, crf, videoBitrate and gifLoop applied.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinSegments } from "../src/join-segments.ts";
import { planRender } from "../src/plan-render.ts";
import { renderProject, type RenderProjectInput } from "../src/render-project.ts";
import { renderSegment } from "../src/render-segment.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { takeSnapshots } from "../src/browser-jobs/take-snapshots.ts";
import { pngSize, readPngPixel } from "./read-png.ts";

const W = 160;
const H = 90;
const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";

/**
 * A red 40x40 box moving right over 1 s. `rootBackground` null: the root paints nothing, and html/body have the
 * dark blue backdrop HyperFrames' templates give them (left out of alpha formats); `bare` drops that backdrop too.
 */
function page(rootBackground: string | null, bare = false): string {
  return `<!doctype html><html><head><script src="${GSAP}"></script><style>
html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; ${bare ? "" : "background: #102030;"} }
[data-composition-id="main"] { position: relative; width: ${W}px; height: ${H}px; ${rootBackground ? `background: ${rootBackground};` : ""} }
#box { position: absolute; left: 0; top: 0; width: 40px; height: 40px; background: #ff0000; }
</style></head><body>
<div data-composition-id="main" data-start="0" data-duration="1" data-width="${W}" data-height="${H}"><div id="box"></div></div>
<script>
  window.__timelines = window.__timelines || {};
  const tl = gsap.timeline({ paused: true });
  tl.fromTo("#box", { x: 0 }, { x: 100, duration: 1, ease: "none" });
  window.__timelines["main"] = tl;
</script></body></html>`;
}

let binaries: Binaries;
let work: string;
const projects: Record<"transparent" | "opaque" | "bare" | "busy", string> = { transparent: "", opaque: "", bare: "", busy: "" };
const signal = () => new AbortController().signal;

beforeAll(async () => {
  binaries = await resolveBinaries();
  work = await mkdtemp(join(tmpdir(), "studio-outputs-"));
  // Fine stripes sliding under the box: every frame costs bits, so a bitrate target is reached, not undershot.
  const stripes = "repeating-linear-gradient(37deg, #f0f 0 1px, #0a0 1px 2px, #fff 2px 4px, #00f 4px 5px)";
  const busy = page(null).replace(`#box {`, `#stripes { position: absolute; left: -200px; top: 0; width: 600px; height: ${H}px; background: ${stripes}; }\n#box {`)
    .replace(`<div id="box"></div>`, `<div id="stripes"></div><div id="box"></div>`)
    .replace(`tl.fromTo("#box"`, `tl.fromTo("#stripes", { x: 0 }, { x: 173.3, duration: 1, ease: "none" }, 0);\n  tl.fromTo("#box"`);
  for (const [name, html] of [["transparent", page(null)], ["opaque", page("#000000")], ["bare", page(null, true)], ["busy", busy]] as const) {
    projects[name] = await mkdtemp(join(work, `${name}-`));
    await writeFile(join(projects[name], "index.html"), html);
  }
});

afterAll(() => rm(work, { recursive: true, force: true }));

type Options = Omit<RenderProjectInput, "projectDir" | "outputPath" | "signal">;
async function render(project: string, name: string, options: Options): Promise<string> {
  const outputPath = join(work, name);
  await renderProject({ projectDir: project, outputPath, quality: "draft", concurrency: 2, binaries, signal: signal(), ...options });
  return outputPath;
}

async function probe(file: string, entries = "stream=codec_name,pix_fmt,profile:stream_tags:format=bit_rate"): Promise<Record<string, string>> {
  const out = await runTool(binaries.ffprobe, ["-v", "error", "-select_streams", "v:0", "-show_entries", entries, "-of", "flat=s=_", file], signal()).done;
  return Object.fromEntries(out.trim().split("\n").map((line) => {
    const [key, value] = line.split("=");
    return [key!.replace(/^(streams_stream_0_|format_)/, "").replace(/^tags_/, "tag_").toLowerCase(), JSON.parse(value!)];
  }));
}

/** Frame `frame` as RGBA bytes; VP9 is decoded by libvpx, the decoder that reads the alpha channel. */
async function rgba(file: string, frame: number, vp9 = false): Promise<Buffer> {
  const out = join(work, `frame-${Math.random().toString(36).slice(2)}.rgba`);
  await runTool(binaries.ffmpeg, [
    "-v", "error", "-y", ...(vp9 ? ["-c:v", "libvpx-vp9"] : []), "-i", file, "-vf", `select=eq(n\\,${frame})`, "-frames:v", "1",
    "-f", "rawvideo", "-pix_fmt", "rgba", out,
  ], signal()).done;
  return readFile(out);
}
const at = (bytes: Buffer, x: number, y: number) => Array.from(bytes.subarray((y * W + x) * 4, (y * W + x) * 4 + 4));

describe("transparency", () => {
  it("webm of a composition whose root paints nothing keeps alpha: VP9 yuva420p, alpha_mode 1, transparent off the box", async () => {
    const file = await render(projects.transparent, "transparent.webm", { format: "webm" });
    expect(await probe(file)).toMatchObject({ codec_name: "vp9", tag_alpha_mode: "1" });
    // Frame 0 (first chunk) and frame 25 (second chunk, after the join): the box opaque red, the rest transparent.
    const first = await rgba(file, 0, true);
    expect(at(first, 20, 20)[3]).toBe(255);
    expect(at(first, 20, 20)[0]).toBeGreaterThan(200);
    expect(at(first, 120, 70)[3]).toBe(0);
    const late = await rgba(file, 25, true);
    expect(at(late, 5, 20)[3]).toBe(0); // the box has moved on
    expect(at(late, 100, 20)[3]).toBe(255);
  }, 120_000);

  it("mov of the same composition is ProRes 4444 with alpha: transparent off the box, opaque on it", async () => {
    const file = await render(projects.transparent, "transparent.mov", { format: "mov" });
    const info = await probe(file);
    expect(info).toMatchObject({ codec_name: "prores", profile: "4444" });
    expect(info["pix_fmt"]).toMatch(/^yuva444p1[02]le$/);
    const frame = await rgba(file, 0);
    expect(at(frame, 20, 20)).toEqual([expect.any(Number), expect.any(Number), expect.any(Number), 255]);
    expect(at(frame, 20, 20)[0]).toBeGreaterThan(200);
    expect(at(frame, 120, 70)[3]).toBe(0);
  }, 120_000);

  it("an opaque root keeps webm and mov opaque (no alpha plane), and mp4 of the transparent one shows the backdrop", async () => {
    const webm = await render(projects.opaque, "opaque.webm", { format: "webm" });
    const webmInfo = await probe(webm);
    expect(webmInfo).toMatchObject({ codec_name: "vp9", pix_fmt: "yuv420p" });
    expect(webmInfo["tag_alpha_mode"]).toBeUndefined();
    expect(at(await rgba(webm, 0, true), 120, 70)).toEqual([expect.any(Number), expect.any(Number), expect.any(Number), 255]);
    const mov = await render(projects.opaque, "opaque.mov", { format: "mov" });
    expect((await probe(mov))["pix_fmt"]).toBe("yuv422p10le");
    const mp4 = await render(projects.transparent, "transparent.mp4", { format: "mp4" });
    expect(await probe(mp4)).toMatchObject({ codec_name: "h264", pix_fmt: "yuv420p" });
    const [r, g, b] = at(await rgba(mp4, 0), 120, 70);
    // #102030, the body's backdrop, within the encoder's rounding.
    expect([r, g, b].map((v, i) => Math.abs(v! - [0x10, 0x20, 0x30][i]!) <= 6)).toEqual([true, true, true]);
  }, 180_000);

  it("decides alpha from the root: an opaque gradient (the starter's kind) is opaque, a faded or rounded root keeps alpha", async () => {
    const cases: [string, boolean][] = [
      ["radial-gradient(120% 90% at 50% 110%, #1d2a5b 0%, #0b1020 60%)", false],
      ["linear-gradient(#000, rgba(0, 0, 0, 0.5))", true],
      ["#000; opacity: 0.5", true],
      ["#000; border-radius: 12px", true],
      ["url(missing.png) #000", false],
    ];
    for (const [background, alpha] of cases) {
      const dir = await mkdtemp(join(work, "root-"));
      await writeFile(join(dir, "index.html"), page(background));
      const plan = await planRender({ projectDir: dir, options: { format: "mov" }, binaries, signal: signal() });
      expect(plan.alpha, background).toBe(alpha);
    }
  }, 120_000);

  it("a split webm render joins its segments with the alpha intact", async () => {
    const options = { format: "webm", quality: "draft" } as const;
    const plan = await planRender({ projectDir: projects.transparent, options, binaries, signal: signal() });
    expect(plan.alpha).toBe(true);
    const segments = [];
    for (const [from, to] of [[0, 15], [15, 30]] as const) {
      const outputPath = join(work, `segment-${from}.webm`);
      await renderSegment({ projectDir: projects.transparent, options, plan, fromFrame: from, toFrame: to, outputPath, concurrency: 1, binaries, signal: signal() });
      segments.push(outputPath);
    }
    const outputPath = join(work, "joined.webm");
    await joinSegments({ projectDir: projects.transparent, options, plan, segmentPaths: segments, outputPath, binaries, signal: signal() });
    expect(await probe(outputPath)).toMatchObject({ tag_alpha_mode: "1" });
    for (const frame of [14, 15, 29]) {
      const bytes = await rgba(outputPath, frame, true);
      expect(at(bytes, 2, 80)[3], `frame ${frame} off the box`).toBe(0);
    }
    expect(at(await rgba(outputPath, 29, true), 110, 20)[3]).toBe(255);
  }, 180_000);

  it("a snapshot of a composition with no background anywhere is an RGBA PNG, transparent off the box", async () => {
    const { images } = await takeSnapshots({
      projectDir: projects.bare, chrome: binaries.chrome, options: { at: [0], end: false }, signal: signal(), onLine: () => {},
    });
    const png = images[0]!.png;
    expect(png[25], "PNG colour type 6: RGBA").toBe(6);
    expect(pngSize(png)).toEqual({ width: W, height: H });
    expect(readPngPixel(png, 120, 70)[3]).toBe(0);
    expect(readPngPixel(png, 20, 20)).toEqual([255, 0, 0, 255]);
  }, 120_000);
});

describe("colour", () => {
  // ProRes decoders that read no colour tag take BT.601: BT.709 data untagged came out #10b981 as 30,206,130.
  const green = [0x10, 0xb9, 0x81];
  async function expectGreen(file: string, what: string) {
    const rgb = at(await rgba(file, 0), 20, 20).slice(0, 3);
    expect(Math.max(...rgb.map((v, i) => Math.abs(v - green[i]!))), `${what} decodes as ${rgb.join(",")}, not 16,185,129`).toBeLessThanOrEqual(2);
    expect(await probe(file, "stream=color_space")).toMatchObject({ color_space: "smpte170m" });
  }
  async function flatProject(from: string): Promise<string> {
    const dir = await mkdtemp(join(work, "flat-"));
    await writeFile(join(dir, "index.html"), (await readFile(join(from, "index.html"), "utf8")).replace("background: #ff0000", "background: #10b981"));
    return dir;
  }

  it("mov keeps a flat colour within 2 levels, with alpha and without, and tags it BT.601 (smpte170m)", async () => {
    await expectGreen(await render(await flatProject(projects.transparent), "flat-alpha.mov", { format: "mov", quality: "high" }), "alpha mov");
    await expectGreen(await render(await flatProject(projects.opaque), "flat-opaque.mov", { format: "mov", quality: "high" }), "opaque mov");
  }, 180_000);

  it("a split mov render keeps the colour and its tag across the segments' remux and the join", async () => {
    const project = await flatProject(projects.transparent);
    const options = { format: "mov", quality: "draft" } as const;
    const plan = await planRender({ projectDir: project, options, binaries, signal: signal() });
    const segments = [];
    for (const [from, to] of [[0, 15], [15, 30]] as const) {
      const outputPath = join(work, `flat-segment-${from}.mov`);
      await renderSegment({ projectDir: project, options, plan, fromFrame: from, toFrame: to, outputPath, concurrency: 1, binaries, signal: signal() });
      segments.push(outputPath);
    }
    const outputPath = join(work, "flat-joined.mov");
    await joinSegments({ projectDir: project, options, plan, segmentPaths: segments, outputPath, binaries, signal: signal() });
    await expectGreen(outputPath, "split mov");
  }, 180_000);
});

describe("png-sequence", () => {
  it("is a zip of one RGBA PNG per frame, frame_000001.png on, transparent where the page paints nothing", async () => {
    const file = await render(projects.transparent, "frames.zip", { format: "png-sequence" });
    const entries = unzipSync(await readFile(file));
    const names = Object.keys(entries);
    expect(names).toEqual(Array.from({ length: 30 }, (_, i) => `frame_${String(i + 1).padStart(6, "0")}.png`));
    for (const name of [names[0]!, names[16]!, names[29]!]) {
      const png = Buffer.from(entries[name]!);
      expect(png[25], `${name} is RGBA`).toBe(6);
      expect(pngSize(png)).toEqual({ width: W, height: H });
    }
    const first = Buffer.from(entries[names[0]!]!);
    expect(readPngPixel(first, 20, 20)).toEqual([255, 0, 0, 255]);
    expect(readPngPixel(first, 120, 70)[3]).toBe(0);
    // The box moves: frame 30 has it 97 px on.
    expect(readPngPixel(Buffer.from(entries[names[29]!]!), 20, 20)[3]).toBe(0);
  }, 120_000);
});

describe("encoder options", () => {
  it("videoBitrate sets the mp4's bitrate and crf changes the size", async () => {
    // One browser, so one chunk: over a 1 s clip the rate buffer's initial fill (up to 2 s of the rate) can come on
    // top of the second's own bits, so the measure is between the target and about twice it; 4x the target, 4x the bits.
    const measured: number[] = [];
    for (const [rate, bits] of [["150k", 150_000], ["0.6M", 600_000]] as const) {
      const file = await render(projects.busy, `rate-${rate}.mp4`, { format: "mp4", videoBitrate: rate, concurrency: 1 });
      const bitRate = Number((await probe(file, "stream=bit_rate"))["bit_rate"]);
      expect(bitRate, `${rate}: ${bitRate} bit/s`).toBeGreaterThan(bits * 0.7);
      expect(bitRate, `${rate}: ${bitRate} bit/s`).toBeLessThan(bits * 2.3);
      measured.push(bitRate);
    }
    expect(measured[1]! / measured[0]!).toBeGreaterThan(2.5);
    const fine = await render(projects.busy, "crf-5.webm", { format: "webm", crf: 5 });
    const coarse = await render(projects.busy, "crf-60.webm", { format: "webm", crf: 60 });
    expect((await readFile(fine)).length).toBeGreaterThan(2 * (await readFile(coarse)).length);
  }, 240_000);

  it("gifLoop is the loop count of the GIF's NETSCAPE extension (0: forever, the default)", async () => {
    const loopCount = async (file: string) => {
      const bytes = await readFile(file);
      const at = bytes.indexOf("NETSCAPE2.0");
      if (at < 0) return null;
      return bytes.readUInt16LE(at + 13); // after the 11 bytes of the name: sub-block size 3, id 1, the count
    };
    expect(await loopCount(await render(projects.opaque, "loop-3.gif", { format: "gif", gifLoop: 3, fps: 5 }))).toBe(3);
    expect(await loopCount(await render(projects.opaque, "loop-default.gif", { format: "gif", fps: 5 }))).toBe(0);
  }, 120_000);
});
