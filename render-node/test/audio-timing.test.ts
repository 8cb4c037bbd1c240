// Audio gain and clip timing as HyperFrames 0.8.170 renders them (real Chromium, real ffmpeg): data-volume above 1
// and past the +12 dB ceiling, a GSAP tween on an <audio>'s volume (sampled from the timeline, mixed as an envelope),
// data-fade-out, data-start naming another clip (for a picture and a sound), data-playback-start, and a reference
// to no clip named in a finding.
import { mkdtemp, writeFile } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { launchCaptureBrowser } from "../src/browser/launch-capture-browser.ts";
import { renderProject } from "../src/render-project.ts";
import { serveProject } from "../src/browser/serve-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import { COLOURS, readPixel } from "./inspect-video.ts";

const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";
const W = 160;
const H = 90;

let binaries: Binaries;
beforeAll(async () => {
  binaries = await resolveBinaries();
});

/** Mean level (dB, RMS) of the left channel over [from, from + length) seconds. */
function meanDb(file: string, from: number, length: number): number {
  const { stderr } = spawnSync(binaries.ffmpeg, ["-hide_banner", "-ss", String(from), "-t", String(length), "-i", file, "-af", "pan=mono|c0=c0,volumedetect", "-f", "null", "-"], { encoding: "utf8" });
  const match = /mean_volume: (-?[\d.]+|-inf) dB/.exec(stderr);
  return match?.[1] === "-inf" ? -Infinity : Number(match?.[1]);
}

/** The level a linear gain ramp from g0 to g1 gives a window of it, relative to unity (RMS of the gain, in dB). */
function rampDb(g0: number, g1: number): number {
  const meanSquare = (g0 * g0 + g0 * g1 + g1 * g1) / 3;
  return 10 * Math.log10(meanSquare);
}

const page = (body: string, script: string) => `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP}"></script>
<style>html, body { margin: 0; width: ${W}px; height: ${H}px; overflow: hidden; background: #000; }
.box { position: absolute; left: 0; top: 0; width: ${W}px; height: ${H}px; }</style></head>
<body><div data-composition-id="main" data-start="0" data-duration="3" data-width="${W}" data-height="${H}" style="position: relative; width: ${W}px; height: ${H}px; background: #000">
${body}
</div>
<script>
  window.__timelines = window.__timelines || {};
  const tl = gsap.timeline({ paused: true });
  ${script}
  tl.to({}, { duration: 3 }, 0);
  window.__timelines["main"] = tl;
</script></body></html>`;

describe("audio gain and clip timing", () => {
  it("mixes data-volume past 1 and clamped at +12 dB, a tweened fade, a fade-out, starts from other clips, the in-point", async () => {
    const project = await mkdtemp(join(tmpdir(), "studio-audio-timing-"));
    // A stereo sine at -18 dB peak, 3 s; the tone file's second half is what data-playback-start reaches.
    await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=48000", "-ac", "2", join(project, "tone.wav")], new AbortController().signal).done;
    // 1 s of silence, then 2 s of the sine: played from 1 s (data-playback-start) it sounds at once.
    await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2:sample_rate=48000", "-af", "adelay=1000|1000", "-ac", "2", join(project, "late.wav")], new AbortController().signal).done;
    await writeFile(join(project, "index.html"), page(`
  <div id="intro" class="box" data-start="0" data-duration="1" style="background: #ff0000"></div>
  <div id="next" class="box" data-start="intro + 0.5" data-duration="0.5" style="background: #00ff00"></div>
  <div id="lost" class="box" data-start="nowhere + 1" data-duration="0.1" style="background: #0000ff; opacity: 0"></div>
  <audio id="steady" src="tone.wav" data-start="0" data-duration="0.6" data-track-index="1" data-volume="2"></audio>
  <audio id="ramp" src="tone.wav" data-start="steady + 0.2" data-duration="1" data-track-index="2" data-volume="1"></audio>
  <audio id="loud" src="late.wav" data-start="ramp + 0.2" data-duration="0.6" data-track-index="3" data-volume="9" data-playback-start="1" data-media-start="0"></audio>
  <audio id="fade" src="tone.wav" data-start="2.6" data-duration="0.4" data-track-index="4" data-fade-out="0.4"></audio>`,
    `tl.fromTo("#ramp", { volume: 0 }, { volume: 2, duration: 1, ease: "none" }, 0.8);`));
    const file = join(project, "out.mp4");
    const lines: string[] = [];
    await renderProject({
      projectDir: project, outputPath: file, format: "mp4", quality: "standard", concurrency: 1,
      signal: new AbortController().signal, onLine: (line) => lines.push(line),
    });
    const unity = meanDb(join(project, "tone.wav"), 0.5, 1);
    const level = (from: number, length: number) => meanDb(file, from, length) - unity;
    // data-volume="2": +6 dB.
    expect(level(0.1, 0.4)).toBeCloseTo(20 * Math.log10(2), 0);
    // Nothing between the steady clip's end (0.6) and the ramp's start (0.8, "steady + 0.2").
    expect(level(0.63, 0.14)).toBeLessThan(-60);
    // The tween 0 → 2 over 0.8..1.8 s, sampled from the timeline: a quiet start, a loud end, linear between.
    // (Within 1 dB: the AAC track starts a few ms late, which shows most where the gain is small and rising.)
    expect(Math.abs(level(0.85, 0.2) - rampDb(0.1, 0.5))).toBeLessThan(1);
    expect(Math.abs(level(1.55, 0.2) - rampDb(1.5, 1.9))).toBeLessThan(1);
    // data-volume="9" plays at the +12 dB ceiling, from 2.0 s ("ramp + 0.2"), from the file's 1 s mark (not silent).
    expect(level(2.05, 0.5)).toBeCloseTo(12, 0);
    // data-fade-out="0.4" over the whole 0.4 s clip: a linear fall from 1 to 0.
    expect(Math.abs(level(2.62, 0.1) - rampDb(0.95, 0.7))).toBeLessThan(1);
    // "intro + 0.5": #next shows from 1.5 s to 2 s (frames 45..59 at 30 fps), not before.
    const colourAt = async (frame: number) => readPixel(binaries.ffmpeg, file, W, frame, 80, 45);
    const near = (a: number[], b: readonly number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i]!))) < 48;
    expect(near(await colourAt(15), COLOURS.RED), "intro shows at 0.5 s").toBe(true);
    expect(near(await colourAt(40), COLOURS.BLACK), "nothing at 1.33 s").toBe(true);
    expect(near(await colourAt(47), COLOURS.GREEN), "#next (intro + 0.5) shows at 1.57 s").toBe(true);
    expect(near(await colourAt(62), COLOURS.BLACK), "and is gone at 2.07 s").toBe(true);
    // A reference to no clip is named, not silently placed at 0.
    expect(lines).toContain('finding: #lost has data-start="nowhere + 1", but no element has that id (nor that data-composition-id), so its start cannot be resolved.');
  }, 180_000);

  it("plays a gain above 1 in the player: the element keeps it, Web Audio carries it, nothing throws", async () => {
    const project = await mkdtemp(join(tmpdir(), "studio-audio-play-"));
    await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=2:sample_rate=48000", "-ac", "2", join(project, "tone.wav")], new AbortController().signal).done;
    // A timeline without GSAP (the test browser has no network): seeking sets the volume to 1 + t, up to 3.
    await writeFile(join(project, "index.html"), `<!doctype html><html><body>
<div data-composition-id="main" data-start="0" data-duration="2" data-width="${W}" data-height="${H}">
  <audio id="music" src="tone.wav" data-start="0" data-duration="2" data-track-index="1" data-volume="9"></audio>
</div>
<script>
  const music = document.getElementById("music");
  window.__timelines = { main: { seek: (t) => { music.volume = 1 + t; }, pause: () => {}, duration: () => 2 } };
</script></body></html>`);
    const server = await serveProject(project);
    const browser = await launchCaptureBrowser({ chrome: binaries.chrome, preferBeginFrame: false, width: W, height: H, onLine: () => {} });
    try {
      await browser.page.goto(server.pageUrl("index.html", "play"), { waitUntil: "load" });
      const state = await browser.page.evaluate(async () => {
        const studio = (window as unknown as { __studio: { ready(): Promise<void>; seek(t: number): Promise<void>; findings(): { message: string }[] } }).__studio;
        await studio.ready();
        const el = document.getElementById("music") as HTMLMediaElement;
        const nativeVolume = () => Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, "volume")!.get!.call(el) as number;
        const atLoad = el.volume;
        await studio.seek(0.5);
        const tweened = el.volume;
        const native = nativeVolume();
        await studio.seek(0);
        return { atLoad, tweened, native, findings: studio.findings().map((f) => f.message) };
      });
      // data-volume="9" holds at the ceiling; a script's 1.5 is kept (the browser's own volume would throw past 1),
      // and the element plays at full native volume with the rest of the gain in Web Audio.
      expect(state.atLoad).toBeCloseTo(3.981, 3);
      expect(state.tweened).toBe(1.5);
      expect(state.native).toBe(1);
      expect(state.findings).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  }, 120_000);
});
