// The player (a preview in real Chromium) plays data-playback-rate, speed ramps and <video loop> as renders do: a clip
// at 2 runs at twice the speed with its pitch kept, a paused seek shows the file's time at twice the timeline's from
// the clip's in-point, a clip on a ramp (data-automation's rate lane) is at the ramp's integral and plays at its speed
// of the moment, and a looping video is sought into its current cycle.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BASE_FLAGS } from "../src/browser/launch-capture-browser.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { servePreview } from "../src/browser-jobs/serve-preview.ts";

// One Chromium for the file: each test opens its own page in it, a launch less than a browser per test.
let browser: Browser;
beforeAll(async () => {
  browser = await puppeteer.launch({ executablePath: (await resolveBinaries()).chrome, headless: "shell", args: BASE_FLAGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const html = `<!doctype html><html><head><style>html, body { margin: 0; width: 320px; height: 180px; }</style></head>
<body><div data-composition-id="main" data-start="0" data-duration="4" data-width="320" data-height="180">
<audio id="fast" src="tone.wav" data-start="0.5" data-playback-start="1" data-playback-rate="2"></audio>
<audio id="plain" src="tone.wav" data-start="0.5" data-playback-start="1"></audio>
<audio id="ramp" src="tone.wav" data-start="0.5" data-playback-start="1" data-playback-rate="3"
  data-automation='{"version":1,"lanes":[{"target":"rate","points":[{"t":0,"v":1},{"t":2,"v":4}]}]}'></audio>
</div></body></html>`;

it("seeks and plays a clip at its data-playback-rate or along its speed ramp, pitch kept", async () => {
  const binaries = await resolveBinaries();
  const dir = await mkdtemp(join(tmpdir(), "preview-rate-"));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "index.html"), html);
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=8", join(dir, "tone.wav")], new AbortController().signal).done;
  const secret = "s3cr3t-preview-rate";
  const preview = await servePreview({ projectDir: dir, secret, firstPort: 3970 });
  const page = await browser.newPage();
  try {
    await page.goto(`http://127.0.0.1:${preview.port}/${secret}/`, { waitUntil: "load" });
    await page.waitForSelector("html[data-studio-player-ready]", { timeout: 20_000 });
    const at = (t: number) => page.evaluate(async (time: number) => {
      const audio = (id: string) => document.getElementById(id) as HTMLAudioElement;
      // Loaded, so a seek lands (the preview serves byte ranges, as the Worker does).
      await Promise.all(["fast", "plain", "ramp"].map((id) => audio(id).readyState >= 4 ? null : new Promise((r) => audio(id).addEventListener("canplaythrough", r, { once: true }))));
      await (window as unknown as { __studio: { seek(t: number): Promise<void> } }).__studio.seek(time);
      return ["fast", "plain", "ramp"].map((id) => ({ time: audio(id).currentTime, rate: audio(id).playbackRate, pitch: audio(id).preservesPitch }));
    }, t);
    // 1.5 s into the timeline is 1 s into the clips: the fast one is 2 s past its in-point (3 s), the plain one 1 s.
    const [fast, plain, ramp] = await at(1.5);
    expect(fast!.time).toBeCloseTo(3, 2);
    expect(fast!.rate).toBe(2);
    expect(fast!.pitch).toBe(true);
    expect(plain!.time).toBeCloseTo(2, 2);
    expect(plain!.rate).toBe(1);
    // The ramp (over data-playback-rate 3) from 1 to 4 in 2 s: 1 s in it has played ∫₀¹ 4^(u/2) du = 1 / ln 2 s of
    // its file and plays at 2.
    expect(ramp!.time).toBeCloseTo(1 + 1 / Math.LN2, 2);
    expect(ramp!.rate).toBeCloseTo(2, 2);
    expect(ramp!.pitch).toBe(true);
  } finally {
    await page.close();
    await preview.close();
  }
}, 60_000);

const loopHtml = `<!doctype html><html><head><style>html, body { margin: 0; width: 320px; height: 180px; }</style></head>
<body><div data-composition-id="main" data-start="0" data-duration="4" data-width="320" data-height="180">
<video id="loop" src="clip.webm" muted loop data-start="0" data-playback-start="0.25" data-duration="4"></video>
<video id="fast" src="clip.webm" muted loop data-start="0" data-playback-rate="2" data-duration="4"></video>
</div></body></html>`;

it("seeks a looping video into its current cycle, at its rate", async () => {
  const binaries = await resolveBinaries();
  const dir = await mkdtemp(join(tmpdir(), "preview-loop-"));
  await writeFile(join(dir, "index.html"), loopHtml);
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=160x90:d=1:r=30", "-c:v", "libvpx-vp9", "-deadline", "realtime", join(dir, "clip.webm")], new AbortController().signal).done;
  const secret = "s3cr3t-preview-loop";
  const preview = await servePreview({ projectDir: dir, secret, firstPort: 3975 });
  const page = await browser.newPage();
  try {
    await page.goto(`http://127.0.0.1:${preview.port}/${secret}/`, { waitUntil: "load" });
    await page.waitForSelector("html[data-studio-player-ready]", { timeout: 20_000 });
    const times = await page.evaluate(async () => {
      const video = (id: string) => document.getElementById(id) as HTMLVideoElement;
      await Promise.all(["loop", "fast"].map((id) => video(id).readyState >= 4 ? null : new Promise((r) => video(id).addEventListener("canplaythrough", r, { once: true }))));
      await (window as unknown as { __studio: { seek(t: number): Promise<void> } }).__studio.seek(1.9);
      return ["loop", "fast"].map((id) => video(id).currentTime);
    });
    // From 0.25 s the file lasts 0.75 s a cycle: 1.9 s is 0.4 s into the third, 0.65 s of the file. At twice the
    // speed a cycle is 0.5 s: 1.9 s is 0.4 s into the fourth, 0.8 s of the file.
    expect(times[0]).toBeCloseTo(0.65, 2);
    expect(times[1]).toBeCloseTo(0.8, 2);
  } finally {
    await page.close();
    await preview.close();
  }
}, 60_000);
