// Benchmark: the cost of splitting a render into segments. The same 1920x1080 30 fps composition (default 60 s, a
// GSAP timeline and an audio track) rendered
//   - unsplit: one node (one process, `renderProject`, B browsers), and
//   - split: a plan, S segment nodes at once (S processes, `renderSegment`, B/S browsers each), then a join
//     (`joinSegments`), each a process of its own as on separate machines,
// with the wall time and the CPU seconds of every process tree (the node, its Chromium and ffmpeg processes),
// and the ratio split/unsplit (goal: CPU ≤ 1.05×). A solo probe segment of a few frames then gives the fixed cost
// of a segment, from which the script prints the wall-time model for 1, 4, 16 and 64 nodes on a 10-minute video
// (bench/README.md explains it and sets it against Remotion Lambda's published figures).
//
//   node bench/segments.ts [--seconds 60] [--segments 3] [--browsers 3] [--probe-frames 45] [--keep]
//
// Needs the machine to itself for figures worth quoting: every process competes for the same cores.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { joinSegments } from "../render-node/src/join-segments.ts";
import { planRender, type RenderPlan } from "../render-node/src/plan-render.ts";
import { renderProject } from "../render-node/src/render-project.ts";
import { renderSegment } from "../render-node/src/render-segment.ts";
import { resolveBinaries } from "../render-node/src/system/resolve-binaries.ts";
import { runTool } from "../render-node/src/system/run-tool.ts";
import { splitFrameRanges } from "../render-node/src/capture/split-frame-ranges.ts";
import { decideSplit, farmModel } from "../worker/renders/split-plan.ts";

const SELF = fileURLToPath(import.meta.url);
const GSAP = "https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js";
const OPTIONS = { format: "mp4", quality: "standard" } as const;

// ── The composition ─────────────────────────────────────────────────────────────────────────────────────────────
function compositionHtml(seconds: number): string {
  const cards = Array.from({ length: 8 }, (_, i) => `<div class="card" id="c${i}" style="left:${120 + i * 210}px;top:${380 + (i % 2) * 220}px;background:hsl(${i * 45},80%,55%)"></div>`).join("\n  ");
  const tweens = Array.from({ length: 8 }, (_, i) => `tl.to("#c${i}", { y: ${i % 2 ? -180 : 180}, rotation: ${90 * (i + 1)}, duration: 4, yoyo: true, repeat: ${Math.max(1, Math.floor(seconds / 4) - 1)}, ease: "sine.inOut" }, ${i * 0.25});`).join("\n  ");
  return `<!doctype html>
<html><head><meta charset="utf-8"><script src="${GSAP}"></script>
<style>
html, body { margin: 0; width: 1920px; height: 1080px; overflow: hidden; }
[data-composition-id="bench"] { position: relative; width: 1920px; height: 1080px; background: linear-gradient(135deg, #0f172a, #312e81); font-family: sans-serif; }
.title { position: absolute; left: 120px; top: 100px; font-size: 110px; font-weight: 800; color: #fff; }
.clock { position: absolute; right: 120px; top: 120px; font-size: 90px; color: #fbbf24; font-variant-numeric: tabular-nums; }
.card { position: absolute; width: 180px; height: 180px; border-radius: 28px; box-shadow: 0 24px 48px rgba(0,0,0,.45); }
</style></head>
<body>
<div data-composition-id="bench" data-start="0" data-duration="${seconds}" data-width="1920" data-height="1080">
  <div class="title">Segments benchmark</div>
  <div class="clock" id="clock">0.0</div>
  ${cards}
  <audio src="assets/tone.wav" data-start="0" data-duration="${seconds}" data-track-index="2" data-volume="0.5"></audio>
</div>
<script>
  window.__timelines = window.__timelines || {};
  const tl = gsap.timeline({ paused: true, onUpdate: () => { document.getElementById("clock").textContent = tl.time().toFixed(1); } });
  tl.from(".title", { x: -300, opacity: 0, duration: 1.5 }, 0);
  ${tweens}
  tl.set({}, {}, ${seconds});
  window.__timelines["bench"] = tl;
</script>
</body></html>
`;
}

async function writeProject(dir: string, seconds: number, ffmpeg: string): Promise<void> {
  await mkdir(join(dir, "assets"), { recursive: true });
  await writeFile(join(dir, "index.html"), compositionHtml(seconds));
  await runTool(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", `sine=frequency=330:duration=${seconds}:sample_rate=48000`, join(dir, "assets", "tone.wav")], new AbortController().signal).done;
}

// ── One step as its own process ─────────────────────────────────────────────────────────────────────────────────
type Step =
  | { step: "whole"; project: string; output: string; browsers: number }
  | { step: "plan"; project: string; planFile: string }
  | { step: "segment"; project: string; planFile: string; from: number; to: number; output: string; browsers: number }
  | { step: "join"; project: string; planFile: string; segments: string[]; output: string };

interface Measured {
  wall: number;
  cpu: number;
  frames?: number;
}

/**
 * CPU seconds of a process tree, sampled every 50 ms from /proc: each process's utime + stime when last seen (keyed by
 * pid and start time). Not the kernel's cutime: Chromium's helper processes are not all reaped by their parents, and
 * counting only reaped children missed about a third of a render's CPU. A process that lives under 50 ms is missed.
 */
function watchTreeCpu(root: number): () => number {
  const seen = new Map<string, number>();
  const sample = () => {
    const children = new Map<number, number[]>();
    const stats = new Map<number, string[]>();
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        stats.set(Number(name), fields);
        children.set(Number(fields[1]), [...(children.get(Number(fields[1])) ?? []), Number(name)]);
      } catch {
        // gone meanwhile
      }
    }
    const queue = [root];
    while (queue.length) {
      const pid = queue.shift()!;
      const fields = stats.get(pid);
      // fields[11], [12]: utime, stime; [19]: start time (clock ticks of 1/100 s).
      if (fields) seen.set(`${pid}-${fields[19]}`, (Number(fields[11]) + Number(fields[12])) / 100);
      queue.push(...(children.get(pid) ?? []));
    }
  };
  const timer = setInterval(sample, 50);
  sample();
  return () => {
    clearInterval(timer);
    return [...seen.values()].reduce((a, b) => a + b, 0);
  };
}

async function runStep(step: Step): Promise<Measured> {
  const began = performance.now();
  const signal = new AbortController().signal;
  const binaries = await resolveBinaries();
  const readPlan = (file: string) => JSON.parse(readFileSync(file, "utf8")) as RenderPlan;
  let frames: number | undefined;
  switch (step.step) {
    case "whole":
      frames = (await renderProject({ projectDir: step.project, outputPath: step.output, ...OPTIONS, concurrency: step.browsers, binaries, signal })).frames;
      break;
    case "plan": {
      const plan = await planRender({ projectDir: step.project, options: OPTIONS, binaries, signal });
      await writeFile(step.planFile, JSON.stringify(plan));
      frames = plan.frames;
      break;
    }
    case "segment":
      frames = (await renderSegment({
        projectDir: step.project, options: OPTIONS, plan: readPlan(step.planFile), fromFrame: step.from, toFrame: step.to,
        outputPath: step.output, concurrency: step.browsers, binaries, signal,
      })).frames;
      break;
    case "join":
      frames = (await joinSegments({ projectDir: step.project, options: OPTIONS, plan: readPlan(step.planFile), segmentPaths: step.segments, outputPath: step.output, binaries, signal })).frames;
      break;
  }
  return { wall: (performance.now() - began) / 1000, cpu: 0, frames };
}

/** Runs a step in a fresh Node process (process start and imports included, as on a real node). */
function inProcess(step: Step): Promise<Measured> {
  const began = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SELF, "--child", JSON.stringify(step)], { stdio: ["ignore", "pipe", "pipe"] });
    const cpu = watchTreeCpu(child.pid!);
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const cpuSeconds = cpu();
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (code !== 0 || !line) return reject(new Error(`${step.step} failed (${code}):\n${out.slice(-2000)}`));
      // Wall time as the parent saw it: process start to exit.
      resolve({ ...(JSON.parse(line.slice("RESULT ".length)) as Measured), wall: (performance.now() - began) / 1000, cpu: cpuSeconds });
    });
  });
}

// ── The comparison ──────────────────────────────────────────────────────────────────────────────────────────────
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "60" },
      segments: { type: "string", default: "3" },
      browsers: { type: "string", default: "3" },
      "probe-frames": { type: "string", default: "45" },
      keep: { type: "boolean", default: false },
    },
  });
  const seconds = Number(values.seconds);
  const segmentCount = Number(values.segments);
  const browsers = Number(values.browsers);
  const probeFrames = Number(values["probe-frames"]);
  const perSegmentBrowsers = Math.max(1, Math.round(browsers / segmentCount));
  const { ffmpeg } = await resolveBinaries();
  const work = await mkdtemp(join(tmpdir(), "studio-bench-segments-"));
  const project = join(work, "project");
  await writeProject(project, seconds, ffmpeg);
  const planFile = join(work, "plan.json");
  console.log(`segments bench: ${seconds} s 1920x1080 at 30 fps, mp4 standard; unsplit ${browsers} browser(s) on one node vs ${segmentCount} segment nodes × ${perSegmentBrowsers} browser(s); work in ${work}`);
  try {
    const whole = await inProcess({ step: "whole", project, output: join(work, "whole.mp4"), browsers });
    const plan = await inProcess({ step: "plan", project, planFile });
    const frames = plan.frames!;
    const ranges = splitFrameRanges(frames, segmentCount);
    const segmentWallStart = performance.now();
    const segments = await Promise.all(
      ranges.map((r, i) => inProcess({ step: "segment", project, planFile, from: r.start, to: r.end, output: join(work, `segment-${i}.mp4`), browsers: perSegmentBrowsers })),
    );
    const segmentsWall = (performance.now() - segmentWallStart) / 1000;
    const join1 = await inProcess({ step: "join", project, planFile, segments: ranges.map((_, i) => join(work, `segment-${i}.mp4`)), output: join(work, "joined.mp4") });
    // The fixed cost of one segment, alone: the same browsers as the unsplit node, a few frames.
    const probe = await inProcess({ step: "segment", project, planFile, from: 0, to: Math.min(probeFrames, frames), output: join(work, "probe.mp4"), browsers });

    const splitCpu = plan.cpu + segments.reduce((s, m) => s + m.cpu, 0) + join1.cpu;
    const splitWall = plan.wall + segmentsWall + join1.wall;
    const row = (name: string, m: { wall: number; cpu: number }) => console.log(`  ${name.padEnd(28)} wall ${m.wall.toFixed(1).padStart(7)} s   cpu ${m.cpu.toFixed(1).padStart(7)} s`);
    console.log(`\n${frames} frames`);
    row("unsplit (one node)", whole);
    row("split: plan", plan);
    segments.forEach((m, i) => row(`split: segment ${i} (${ranges[i]!.end - ranges[i]!.start} fr)`, m));
    row("split: join", join1);
    row("split: total", { wall: splitWall, cpu: splitCpu });
    console.log(`\nCPU ratio split/unsplit: ${(splitCpu / whole.cpu).toFixed(3)}× (goal ≤ 1.05×)`);
    console.log(`wall ratio split/unsplit on this one machine: ${(splitWall / whole.wall).toFixed(3)}× (the segment nodes share its cores)`);

    // Model: a node with `browsers` browsers renders F frames in o + F·t seconds (fit through the probe and the
    // unsplit run); the join takes j seconds per second of video; the plan costs p.
    const t = (whole.wall - probe.wall) / (frames - probe.frames!);
    const o = Math.max(0, probe.wall - probe.frames! * t);
    const j = join1.wall / seconds;
    const p = plan.wall;
    console.log(`\nmeasured: fixed cost of a segment o = ${o.toFixed(2)} s, per frame t = ${(t * 1000).toFixed(1)} ms (${(1 / t).toFixed(1)} frames/s per node), join j = ${(j * 1000).toFixed(1)} ms per second of video, plan p = ${p.toFixed(2)} s`);
    // The Worker's split decision (worker/renders/split-plan.ts) with these figures as its settings: one segment per
    // free node in one wave, when that is sooner than whole.
    const model = farmModel({ SEGMENT_OVERHEAD_MS: Math.round(o * 1000), NODE_FRAMES_PER_SECOND: 1 / t, JOIN_MS_PER_VIDEO_SECOND: Math.round(j * 1000), MAX_SEGMENTS: 64 });
    console.log(`settings for these nodes: SEGMENT_OVERHEAD_MS=${Math.round(o * 1000)} NODE_FRAMES_PER_SECOND=${(1 / t).toFixed(1)} JOIN_MS_PER_VIDEO_SECOND=${Math.round(j * 1000)}`);
    const video = 600;
    const total = video * 30;
    console.log(`model, 10-minute 1080p30 video (${total} frames), nodes like this one, transfers not counted:`);
    for (const nodes of [1, 4, 16, 64]) {
      const d = decideSplit({ frames: total, durationSeconds: video, width: 1920, height: 1080, format: "mp4", freeNodes: nodes }, model);
      const wall = d.whole ? d.wholeS + j * video : p + d.splitS;
      console.log(`  ${String(nodes).padStart(2)} node${nodes === 1 ? " " : "s"}: ${wall.toFixed(0).padStart(6)} s  (${(wall / 60).toFixed(1)} min, ${d.segments.length} segment${d.segments.length === 1 ? "" : "s"})`);
    }
  } finally {
    if (!values.keep) await rm(work, { recursive: true, force: true });
  }
}

const childIndex = process.argv.indexOf("--child");
if (childIndex >= 0) {
  const result = await runStep(JSON.parse(process.argv[childIndex + 1]!) as Step);
  console.log(`RESULT ${JSON.stringify(result)}`);
  process.exit(0);
} else {
  await main();
}
