// data-automation's rate lane (a speed ramp) renders as HyperFrames renders it (real Chromium, real ffmpeg): each
// frame of a <video> shows its source at the ramp's integral of speed from the in-point, and a sound follows the
// same map, its pitch kept: a tone that starts 1 s into its file is heard when the ramp has played 1 s of it. A
// constant data-playback-rate picks its frames the same way: frame k shows the file's floor(rate × k).
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { clipSecondsAt, sourceSecondsAt, type RatePoint } from "../../core/composition/speed-ramp.ts";

/** One counter's width; the page shows three side by side (the ramp, rate 3, rate 0.5). */
const W = 112;
const H = 16;
const PAGE_W = 3 * W;
const FPS = 30;
const BITS = 7;
let binaries: Binaries;
let output = "";
const signal = new AbortController().signal;

const automation = (points: RatePoint[]) => JSON.stringify({ version: 1, lanes: [{ target: "rate", points }] });
// Slow to fast, curved, then on at the last speed; and a ramp from 1 to 4 for the sound.
const videoRamp: RatePoint[] = [{ t: 0, v: 0.5, curve: 0.3 }, { t: 0.8, v: 2.5, curve: 0 }];
const soundRamp: RatePoint[] = [{ t: 0, v: 1, curve: 0 }, { t: 1, v: 4, curve: 0 }];

beforeAll(async () => {
  binaries = await resolveBinaries();
  const project = await mkdtemp(join(tmpdir(), "studio-speed-ramp-"));
  await mkdir(join(project, "assets"));
  // A frame counter: frame n of the file shows n in binary, seven bars of 16 px (bit b white when set).
  await runTool(binaries.ffmpeg, [
    "-v", "error", "-y", "-f", "lavfi", "-i", `nullsrc=s=${W}x${H}:r=${FPS}:d=3.5`,
    "-vf", "geq=lum=if(mod(floor(N/pow(2\\,floor(X/16)))\\,2)\\,235\\,16):cb=128:cr=128",
    "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", join(project, "assets", "counter.mp4"),
  ], signal).done;
  // 1 s of silence, then a 440 Hz tone.
  await runTool(binaries.ffmpeg, [
    "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=4:sample_rate=48000", "-af", "adelay=1000", join(project, "assets", "late-tone.wav"),
  ], signal).done;
  await writeFile(join(project, "index.html"), `<!doctype html><html><head><style>
html, body { margin: 0; width: ${PAGE_W}px; height: ${H}px; overflow: hidden; background: #000; }
video { position: absolute; top: 0; width: ${W}px; height: ${H}px; }</style></head>
<body><div data-composition-id="main" data-start="0" data-duration="1.6" data-width="${PAGE_W}" data-height="${H}">
<video src="assets/counter.mp4" muted style="left: 0" data-start="0" data-duration="1.6" data-media-start="0.5" data-playback-rate="3" data-automation='${automation(videoRamp)}'></video>
<video src="assets/counter.mp4" muted style="left: ${W}px" data-start="0" data-duration="0.8" data-media-start="0.2" data-playback-rate="3"></video>
<video src="assets/counter.mp4" muted style="left: ${2 * W}px" data-start="0" data-duration="1.6" data-playback-rate="0.5"></video>
<audio src="assets/late-tone.wav" data-start="0" data-duration="1.6" data-automation='${automation(soundRamp)}'></audio>
</div><script>window.__timelines = { main: { duration: () => 1.6, seek() {}, pause() {} } };</script></body></html>`);
  output = join(project, "out.mp4");
  await renderProject({ projectDir: project, outputPath: output, format: "mp4", quality: "high", signal });
}, 120_000);

/** The counter each frame of the render shows in one of the page's three columns, read off its bars. */
async function countersShown(column: number): Promise<number[]> {
  const raw = `${output}.gray`;
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-i", output, "-f", "rawvideo", "-pix_fmt", "gray", raw], signal).done;
  const bytes = readFileSync(raw);
  const frames = bytes.length / (PAGE_W * H);
  return Array.from({ length: frames }, (_, k) => {
    let n = 0;
    for (let b = 0; b < BITS; b++) if (bytes[k * PAGE_W * H + (H / 2) * PAGE_W + column * W + b * 16 + 8]! > 128) n += 2 ** b;
    return n;
  });
}

it("shows, at each frame, the source frame at the ramp's integral of speed from the in-point (the lane over data-playback-rate)", async () => {
  const shown = await countersShown(0);
  expect(shown).toHaveLength(48);
  // Frame k is the clip's k/30 s: its file's 0.5 s (frame 15) plus the ramp's source seconds, as frames.
  const expected = shown.map((_, k) => 15 + Math.floor(sourceSecondsAt(videoRamp, k / FPS) * FPS + 1e-6));
  expect(shown).toEqual(expected);
  // Slow first, fast at the end: 0.3 s in it shows 0.17 s of the file (0.9 s at data-playback-rate 3), 1.5 s in
  // 2.6 s (4.5 s at 3).
  expect(shown[9]).toBe(15 + 5);
  expect(shown[45]).toBe(15 + 78);
}, 60_000);

it("shows, at a constant data-playback-rate, the file's frame floor(rate × k) at frame k, as HyperFrames picks it", async () => {
  // Three times as fast from the file's 0.2 s (frame 6) for 0.8 s; half as fast from its start.
  const fast = (await countersShown(1)).slice(0, 24);
  expect(fast).toEqual(fast.map((_, k) => 6 + 3 * k));
  const slow = await countersShown(2);
  expect(slow).toEqual(slow.map((_, k) => Math.floor(k / 2)));
}, 60_000);

/** Mono 8 kHz samples of the render's sound. */
async function samples(): Promise<Int16Array> {
  const pcm = `${output}.pcm`;
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-i", output, "-vn", "-ac", "1", "-ar", "8000", "-f", "s16le", pcm], signal).done;
  const bytes = readFileSync(pcm);
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length >> 1);
}

it("sounds the tone when the ramp has played the file's first second, at its own pitch", async () => {
  const sound = await samples();
  const level = (from: number, to: number) => {
    let sum = 0;
    for (let i = Math.floor(from * 8000); i < Math.floor(to * 8000); i++) sum += (sound[i]! / 32768) ** 2;
    return Math.sqrt(sum / (Math.floor(to * 8000) - Math.floor(from * 8000)));
  };
  // From 1 to 4 (geometric): the file's 1 s is reached at 0.63 s of the timeline, not 1 s as at speed 1.
  const onset = clipSecondsAt(soundRamp, 1);
  expect(onset).toBeCloseTo(0.627, 2);
  let heard = 0;
  while (heard < 1.6 && level(heard, heard + 0.005) < 0.02) heard += 0.005;
  // Within atempo's window (tens of ms: the slice around the onset is stretched as a whole, as in HyperFrames).
  expect(Math.abs(heard - onset)).toBeLessThan(0.05);
  expect(level(0.1, onset - 0.05)).toBeLessThan(0.005);
  expect(level(onset + 0.05, 1.5)).toBeGreaterThan(0.05);
  // 440 Hz at speeds of 2.5 to 4: still 880 zero crossings a second, not an octave or two up.
  let crossings = 0;
  for (let i = Math.floor(0.8 * 8000) + 1; i < 1.4 * 8000; i++) if ((sound[i - 1]! < 0) !== (sound[i]! < 0)) crossings++;
  expect(crossings / 0.6).toBeGreaterThan(840);
  expect(crossings / 0.6).toBeLessThan(920);
}, 60_000);
