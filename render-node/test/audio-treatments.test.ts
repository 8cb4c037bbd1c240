// HyperFrames' audio treatments as its render sounds them (real Chromium, real ffmpeg): data-fx-chain's filters and
// delay (run on the clip's sound, the delay ringing past the clip's end), a data-automation volume lane (over
// data-volume), and what the studio leaves out (a reverb, an effect-parameter lane) said as feature-unsupported findings.
import { mkdtemp, writeFile } from "node:fs/promises";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { runTool } from "../src/system/run-tool.ts";
import type { Finding } from "../../core/protocol/finding.ts";

let binaries: Binaries;
let project = "";
let output = "";
const findings: Finding[] = [];

/** Mean level (dB, RMS) of the left channel over [from, from + length) seconds, after `filter` (e.g. a band). */
function meanDb(file: string, from: number, length: number, filter = "anull"): number {
  const args = ["-hide_banner", "-ss", String(from), "-t", String(length), "-i", file, "-af", `pan=mono|c0=c0,${filter},volumedetect`, "-f", "null", "-"];
  const { stderr } = spawnSync(binaries.ffmpeg, args, { encoding: "utf8" });
  const match = /mean_volume: (-?[\d.]+|-inf) dB/.exec(stderr);
  return match?.[1] === "-inf" ? -Infinity : Number(match?.[1]);
}

const chain = (nodes: object[]) => JSON.stringify({ version: 1, nodes });
const automation = (lanes: object[]) => JSON.stringify({ version: 1, lanes });

beforeAll(async () => {
  binaries = await resolveBinaries();
  project = await mkdtemp(join(tmpdir(), "studio-audio-treatments-"));
  const signal = new AbortController().signal;
  // Two tones at once (440 Hz and 6 kHz), 3 s, stereo.
  await runTool(binaries.ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3:sample_rate=48000", "-f", "lavfi", "-i", "sine=frequency=6000:duration=3:sample_rate=48000",
    "-filter_complex", "amix=inputs=2:duration=first,volume=2", "-ac", "2", join(project, "tones.wav")], signal).done;
  await writeFile(join(project, "index.html"), `<!doctype html><html><head><style>html, body { margin: 0; width: 160px; height: 90px; background: #000; }</style></head>
<body><div data-composition-id="main" data-start="0" data-duration="2.6" data-width="160" data-height="90">
<audio id="dull" src="tones.wav" data-start="0" data-duration="0.8" data-track-index="1" data-fx-chain='${chain([{ type: "lowpass", params: { frequency: 800 } }, { type: "reverb" }])}'></audio>
<audio id="echo" src="tones.wav" data-start="1" data-duration="0.2" data-track-index="2" data-fx-chain='${chain([{ type: "delay", params: { time: 300, feedback: 0.01, mix: 0.5 } }])}'></audio>
<audio id="swell" src="tones.wav" data-start="1.8" data-duration="0.8" data-track-index="3" data-volume="0.1"
  data-automation='${automation([{ target: "volume", points: [{ t: 0, v: 0 }, { t: 0.4, v: 0 }, { t: 0.4001, v: 1 }] }, { target: "fx.lp.frequency", points: [{ t: 0, v: 400 }, { t: 1, v: 2000 }] }])}'></audio>
</div><script>window.__timelines = { main: { duration: () => 2.6, seek() {}, pause() {} } };</script></body></html>`);
  output = join(project, "out.mp4");
  const result = await renderProject({ projectDir: project, outputPath: output, format: "mp4", quality: "standard", concurrency: 1, signal });
  findings.push(...result.findings);
}, 120_000);

const dry = (filter?: string) => meanDb(join(project, "tones.wav"), 0.2, 0.4, filter);

it("runs a clip through its lowpass: the 6 kHz tone falls by 12 dB an octave, the 440 Hz tone stays", () => {
  const high = "highpass=f=3000,highpass=f=3000";
  const low = "lowpass=f=1000,lowpass=f=1000";
  expect(meanDb(output, 0.2, 0.4, high) - dry(high)).toBeLessThan(-30);
  // Web Audio reads a lowpass's Q (0.707) in dB, a resonance of 1.085: 440 Hz under an 800 Hz corner rises 1.3 dB.
  expect(meanDb(output, 0.2, 0.4, low) - dry(low)).toBeCloseTo(1.3, 0);
});

it("sounds a delay's echo after the clip has ended, at the mix's level", () => {
  // The clip (1.0-1.2 s) at 1 - mix, its echo 0.3 s later (1.3-1.5 s) at mix: both 6 dB down.
  expect(meanDb(output, 1.05, 0.1) - dry()).toBeCloseTo(-6, 0);
  expect(meanDb(output, 1.35, 0.1) - dry()).toBeCloseTo(-6, 0);
  expect(meanDb(output, 1.55, 0.2)).toBeLessThan(-60);
});

it("plays a volume lane over data-volume: silent, then at unity", () => {
  expect(meanDb(output, 1.85, 0.3)).toBeLessThan(-60);
  expect(meanDb(output, 2.25, 0.3) - dry()).toBeCloseTo(0, 0);
});

it("says what it leaves out: the reverb and the effect-parameter lane", () => {
  const said = findings.filter((f) => f.code === "feature-unsupported").map((f) => f.message);
  expect(said).toEqual([
    expect.stringMatching(/^data-fx-chain on audio#dull: reverb is not rendered by the studio/),
    expect.stringMatching(/^data-automation on audio#swell: the effect lane fx\.lp\.frequency is not rendered by the studio/),
  ]);
});
