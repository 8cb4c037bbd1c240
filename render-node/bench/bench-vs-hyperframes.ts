// Benchmark against HyperFrames: the bench-render.ts composition (6 s, 1920x1080, 30 fps, a sub-composition, audio),
// GSAP loaded from a project file, rendered at quality standard to mp4 by our pipeline and by the HyperFrames CLI,
// alternating (ours, theirs, ours, theirs, ...). Prints each run, the medians, the ratio ours/theirs, and checks the
// two outputs are comparable (ffprobe of both, PSNR and SSIM of ours against theirs).
//
//   node_modules/.bin/node render-node/bench/bench-vs-hyperframes.ts [--runs N] [--keep]
//
// HyperFrames is not a dependency of the project: the pinned version is installed on first use into
// render-node/bench/.cache/hyperframes (git-ignored) with npm on our Node 24. npm 11 does not run install scripts by
// default, so nothing downloads a browser; the CLI is pointed at our Chromium with PRODUCER_HEADLESS_SHELL_PATH and
// at our ffmpeg/ffprobe with HYPERFRAMES_FFMPEG_PATH/HYPERFRAMES_FFPROBE_PATH.
//
// Both renderers run as a fresh Node process per run, so both wall times include process start, module loading,
// browser launch and the final mux.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { loadavg } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { renderProject } from "../src/render-project.ts";
import { resolveBinaries, type Binaries } from "../src/system/resolve-binaries.ts";
import { makeBenchProject } from "./bench-render.ts";
import { runProcess } from "../../bench/lib/run-process.ts";

const HYPERFRAMES_VERSION = "0.8.170";
const HERE = dirname(fileURLToPath(import.meta.url));
const CACHE = join(HERE, ".cache", "hyperframes");
const HYPERFRAMES_BIN = join(CACHE, "node_modules", "hyperframes", "bin", "hyperframes.mjs");
const run = runProcess;
const execFileP = promisify(execFile);

/** PATH with our Node 24 first, so npm and the HyperFrames CLI (Node 22+) run on it. */
function pathWithOurNode(): string {
  return [dirname(process.execPath), process.env.PATH ?? ""].join(delimiter);
}

function installedHyperframesVersion(): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(join(CACHE, "node_modules", "hyperframes", "package.json"), "utf8")) as { version?: string };
    return pkg.version;
  } catch (error) {
    // Not installed yet (or a broken install): installed below.
    console.error(`hyperframes not installed in ${CACHE} (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
}

async function ensureHyperframes(): Promise<void> {
  if (installedHyperframesVersion() === HYPERFRAMES_VERSION) return;
  console.log(`installing hyperframes@${HYPERFRAMES_VERSION} into ${CACHE}`);
  await mkdir(CACHE, { recursive: true });
  await run("npm", ["install", "--prefix", CACHE, `hyperframes@${HYPERFRAMES_VERSION}`, "--no-audit", "--no-fund", "--no-save"], {
    ...process.env,
    PATH: pathWithOurNode(),
  });
  if (installedHyperframesVersion() !== HYPERFRAMES_VERSION) throw new Error(`hyperframes@${HYPERFRAMES_VERSION} did not install into ${CACHE}`);
}


function hyperframesArgs(project: string, output: string): string[] {
  return [HYPERFRAMES_BIN, "render", project, "--output", output, "--quality", "standard", "--fps", "30", "--format", "mp4", "--quiet"];
}

function hyperframesEnv(binaries: Binaries): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: pathWithOurNode(),
    PRODUCER_HEADLESS_SHELL_PATH: binaries.chrome,
    HYPERFRAMES_FFMPEG_PATH: binaries.ffmpeg,
    HYPERFRAMES_FFPROBE_PATH: binaries.ffprobe,
    // No network here: no telemetry, no update check.
    HYPERFRAMES_NO_TELEMETRY: "1",
    DO_NOT_TRACK: "1",
    HYPERFRAMES_NO_UPDATE_CHECK: "1",
  };
}

interface Run {
  who: "ours" | "theirs";
  seconds: number;
  output: string;
}

async function timed(who: Run["who"], file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const started = performance.now();
  const output = await run(file, args, env);
  return { who, seconds: (performance.now() - started) / 1000, output };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const at = (index: number): number => sorted[index] ?? Number.NaN;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

interface Probe {
  width: number;
  height: number;
  videoCodec: string;
  pixFmt: string;
  frames: number;
  fps: string;
  audioCodec: string | null;
  audioSeconds: number | null;
  seconds: number;
  kbps: number;
}

async function probe(ffprobe: string, file: string): Promise<Probe> {
  const { stdout } = await execFileP(ffprobe, ["-v", "error", "-count_packets", "-show_streams", "-show_format", "-of", "json", file]);
  const info = JSON.parse(stdout) as {
    streams: { codec_type: string; codec_name: string; width?: number; height?: number; pix_fmt?: string; nb_read_packets?: string; r_frame_rate?: string; duration?: string }[];
    format: { duration: string; bit_rate: string };
  };
  const video = info.streams.find((s) => s.codec_type === "video");
  const audio = info.streams.find((s) => s.codec_type === "audio");
  if (!video) throw new Error(`${file} has no video stream`);
  return {
    width: video.width ?? 0,
    height: video.height ?? 0,
    videoCodec: video.codec_name,
    pixFmt: video.pix_fmt ?? "?",
    frames: Number(video.nb_read_packets),
    fps: video.r_frame_rate ?? "?",
    audioCodec: audio?.codec_name ?? null,
    audioSeconds: audio?.duration ? Number(audio.duration) : null,
    seconds: Number(info.format.duration),
    kbps: Math.round(Number(info.format.bit_rate) / 1000),
  };
}

/** PSNR (dB) and SSIM of `a` against `b`, frame by frame, averaged over all frames. */
async function compare(ffmpeg: string, a: string, b: string): Promise<{ psnr: string; ssim: string }> {
  const { stderr } = await execFileP(ffmpeg, [
    "-hide_banner", "-i", a, "-i", b,
    "-lavfi", "[0:v]split[a0][a1];[1:v]split[b0][b1];[a0][b0]psnr;[a1][b1]ssim",
    "-f", "null", "-",
  ], { maxBuffer: 16 * 1024 * 1024 });
  const psnr = /PSNR y:(\S+) u:(\S+) v:(\S+) average:(\S+)/.exec(stderr);
  const ssim = /SSIM Y:(\S+) .*All:(\S+)/.exec(stderr);
  return {
    psnr: psnr ? `${psnr[4]} dB (Y ${psnr[1]}, U ${psnr[2]}, V ${psnr[3]})` : "not found in ffmpeg output",
    ssim: ssim ? `${ssim[2]} (Y ${ssim[1]})` : "not found in ffmpeg output",
  };
}

function load(): string {
  return loadavg().map((value) => value.toFixed(2)).join(", ");
}

// Child mode: one render with our pipeline in a fresh process (what a render node does per job).
async function renderOursOnce(project: string, output: string): Promise<void> {
  const result = await renderProject({
    projectDir: project, outputPath: output, quality: "standard", format: "mp4", fps: 30,
    signal: new AbortController().signal,
  });
  console.log(`${result.captureMode} capture, ${result.frames} frames, findings: ${result.findings.length ? result.findings.join("; ") : "none"}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "3" },
      keep: { type: "boolean", default: false },
      "render-ours": { type: "string" },
      output: { type: "string" },
    },
  });
  if (values["render-ours"]) {
    await renderOursOnce(values["render-ours"], values.output ?? join(values["render-ours"], "out.mp4"));
    return;
  }
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);

  const binaries = await resolveBinaries();
  await ensureHyperframes();
  const project = await makeBenchProject(binaries.ffmpeg, { gsap: "local", fonts: "project" });
  const outDir = join(project, "out");
  await mkdir(outDir);
  const nodeVersion = (await execFileP(process.execPath, ["--version"])).stdout.trim();
  console.log(`project   ${project} (GSAP from assets/gsap.min.js, gsap-3.14.2 npm package; DejaVu Sans from assets/ via @font-face)`);
  console.log(`chrome    ${binaries.chrome}`);
  console.log(`ffmpeg    ${binaries.ffmpeg}`);
  console.log(`node      ${process.execPath} ${nodeVersion}`);
  console.log(`ours      node ${resolve(fileURLToPath(import.meta.url))} --render-ours <project> --output <out>  (renderProject, quality standard, mp4, 30 fps)`);
  console.log(`theirs    hyperframes@${HYPERFRAMES_VERSION}: node ${hyperframesArgs("<project>", "<out>").join(" ")}`);
  console.log(`          env PRODUCER_HEADLESS_SHELL_PATH=${binaries.chrome} HYPERFRAMES_FFMPEG_PATH HYPERFRAMES_FFPROBE_PATH (ours)`);
  console.log(`load average before: ${load()}`);

  const results: Run[] = [];
  const oursOut = join(outDir, "ours.mp4");
  const theirsOut = join(outDir, "theirs.mp4");
  for (let i = 0; i < runs; i++) {
    for (const who of ["ours", "theirs"] as const) {
      const result =
        who === "ours"
          ? await timed("ours", process.execPath, [fileURLToPath(import.meta.url), "--render-ours", project, "--output", oursOut], process.env)
          : await timed("theirs", process.execPath, hyperframesArgs(project, theirsOut), hyperframesEnv(binaries));
      results.push(result);
      console.log(`run ${i + 1} ${who.padEnd(6)} ${result.seconds.toFixed(2)} s = ${(180 / result.seconds).toFixed(1)} frames/s   (load ${load()})`);
      // What each renderer says about its first render (capture mode, findings, warnings).
      if (i === 0) for (const line of result.output.trim().split("\n").slice(-6)) console.log(`    | ${line}`);
    }
  }
  console.log(`load average after: ${load()}`);

  const ours = median(results.filter((r) => r.who === "ours").map((r) => r.seconds));
  const theirs = median(results.filter((r) => r.who === "theirs").map((r) => r.seconds));
  console.log(`median ours   ${ours.toFixed(2)} s = ${(180 / ours).toFixed(1)} frames/s`);
  console.log(`median theirs ${theirs.toFixed(2)} s = ${(180 / theirs).toFixed(1)} frames/s`);
  console.log(`ratio ours/theirs ${(ours / theirs).toFixed(3)} (goal <= 0.5: ${ours / theirs <= 0.5 ? "met" : "NOT met"})`);
  // On a shared machine the load moves between runs; the pair ratios and the fastest runs show how much.
  const pairs = results.filter((r) => r.who === "ours").map((r, i) => r.seconds / (results.filter((t) => t.who === "theirs")[i]?.seconds ?? Number.NaN));
  console.log(`ratio per pair (run i ours / run i theirs): ${pairs.map((r) => r.toFixed(3)).join(", ")}`);
  const fastest = (who: Run["who"]) => Math.min(...results.filter((r) => r.who === who).map((r) => r.seconds));
  console.log(`fastest ours ${fastest("ours").toFixed(2)} s, fastest theirs ${fastest("theirs").toFixed(2)} s, ratio ${(fastest("ours") / fastest("theirs")).toFixed(3)}`);

  // Equal quality: same shape of output, and how close the pictures are.
  const [po, pt] = await Promise.all([probe(binaries.ffprobe, oursOut), probe(binaries.ffprobe, theirsOut)]);
  const sizes = await Promise.all([stat(oursOut), stat(theirsOut)]);
  for (const [who, p, size] of [["ours", po, sizes[0].size], ["theirs", pt, sizes[1].size]] as const) {
    console.log(
      `${who.padEnd(6)} ${p.width}x${p.height} ${p.videoCodec} ${p.pixFmt} ${p.fps} fps, ${p.frames} frames, ${p.seconds.toFixed(3)} s, ` +
        `audio ${p.audioCodec ?? "NONE"}${p.audioSeconds ? ` ${p.audioSeconds.toFixed(3)} s` : ""}, ${p.kbps} kb/s, ${(size / 1024).toFixed(0)} KiB`,
    );
  }
  const same = po.width === pt.width && po.height === pt.height && po.frames === pt.frames && po.videoCodec === pt.videoCodec && po.audioCodec === pt.audioCodec && po.audioCodec !== null;
  console.log(`same dimensions, frame count, codecs, both with audio: ${same ? "yes" : "NO"}`);
  const { psnr, ssim } = await compare(binaries.ffmpeg, oursOut, theirsOut);
  console.log(`ours vs theirs: PSNR ${psnr}, SSIM ${ssim}`);

  if (values.keep) console.log(`outputs kept in ${outDir}`);
  else await rm(project, { recursive: true, force: true });
}

if (import.meta.main) await main();
