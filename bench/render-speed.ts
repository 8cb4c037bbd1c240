// Render speed against HyperFrames 0.8.170 (issue 24, item 4): four cases in one run (bench/lib/speed-cases.ts):
// the reference composition, the new-project starter, 20 s with long holds (each against HyperFrames, in
// alternating pairs: ours, theirs, ours, theirs, ...) and a 60 s 1080p30 standard render (ours only, wall time).
// Prints every run with the load average, the medians, the ratio of medians, the ratio of each pair, and our
// render's stage timeline (stage, start, end, cores busy) from the first run of each case.
//
//   node_modules/.bin/node bench/render-speed.ts [--runs 3] [--long-runs 1] [--only reference,starter,holds,long]
//
// Both renderers run as a fresh process per run (process start, browser launch and the final mux included).
// The reference is set up as for bench/parity.ts (bench/lib/hyperframes-reference.ts).
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { renderProject } from "../render-node/src/render-project.ts";
import { resolveBinaries, type Binaries } from "../render-node/src/system/resolve-binaries.ts";
import { busyShare, readCpuTimes } from "../render-node/src/system/machine-cpu.ts";
import { formatTimeline, type TimelineStage } from "../render-node/src/progress/render-timeline.ts";
import { runProcess } from "./lib/run-process.ts";
import { HYPERFRAMES_VERSION, ensureReference, renderReference } from "./lib/hyperframes-reference.ts";
import { SPEED_CASES, type Quality, type SpeedCase } from "./lib/speed-cases.ts";
import { attemptRun, load, median, pairRatios } from "./lib/speed-pairs.ts";

const SELF = fileURLToPath(import.meta.url);

/**
 * Child mode: one render by our pipeline. Prints the render's own timeline when it reports one, else a timeline
 * read off its log lines (loading → capturing → last frame → joining → done), which works on older commits too.
 */
async function renderOursOnce(project: string, output: string, quality: Quality): Promise<void> {
  const began = performance.now();
  const marks: { at: number; cpu: ReturnType<typeof readCpuTimes>; line: string }[] = [];
  const result = await renderProject({
    projectDir: project, outputPath: output, quality, format: "mp4", signal: new AbortController().signal,
    onLine: (line) => marks.push({ at: (performance.now() - began) / 1000, cpu: readCpuTimes(), line }),
  });
  const own = (result as { timeline?: TimelineStage[] }).timeline;
  if (own) {
    console.log(`timeline (render): ${formatTimeline(own)}`);
  } else {
    const find = (test: (line: string) => boolean) => marks.find((m) => test(m.line));
    const points = [
      ["loading", find((l) => l.startsWith("loading composition"))],
      ["capturing", find((l) => l.startsWith("capturing with"))],
      ["after last frame", marks.findLast((m) => /^frame (\d+)\/\1 /.test(m.line))],
      ["joining", find((l) => l.startsWith("joining"))],
      ["done", find((l) => l.startsWith("done:"))],
    ] as const;
    const stages: TimelineStage[] = [];
    for (let i = 0; i + 1 < points.length; i++) {
      const [stage, from] = points[i]!;
      const to = points[i + 1]![1];
      if (from && to) stages.push({ stage, start: from.at, end: to.at, cpu: busyShare(from.cpu, to.cpu) });
    }
    console.log(`timeline (from log lines): ${formatTimeline(stages)}`);
  }
  console.log(`ours: ${result.captureMode}, ${result.frames} frames, ${result.seconds.toFixed(2)} s in renderProject`);
}

interface Run {
  who: "ours" | "theirs";
  /** Which pair (0-based). */
  run?: number;
  seconds: number;
  output: string;
}

async function runOurs(project: string, output: string, quality: Quality): Promise<Run> {
  const started = performance.now();
  const log = await runProcess(process.execPath, [SELF, "--render-ours", project, "--output", output, "--quality", quality]);
  return { who: "ours", seconds: (performance.now() - started) / 1000, output: log };
}

async function runTheirs(project: string, output: string, quality: Quality, binaries: Binaries): Promise<Run> {
  const started = performance.now();
  const log = await renderReference(project, output, { quality, format: "mp4" }, binaries);
  return { who: "theirs", seconds: (performance.now() - started) / 1000, output: log };
}

async function benchCase(c: SpeedCase, runs: number, binaries: Binaries): Promise<string> {
  const project = await c.make(binaries.ffmpeg);
  console.log(`\n## ${c.name}: ${c.what} (${c.frames} frames)  project ${project}  load ${load()}`);
  const results: Run[] = [];
  const failures: string[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const order = c.reference ? (["ours", "theirs"] as const) : (["ours"] as const);
      for (const who of order) {
        const run = await attemptRun(who, i, who === "ours"
          ? runOurs(project, join(project, "ours.mp4"), c.quality)
          : runTheirs(project, join(project, "theirs.mp4"), c.quality, binaries), failures);
        if (!run) continue;
        results.push({ ...run, run: i });
        console.log(`run ${i + 1} ${who.padEnd(6)} ${run.seconds.toFixed(2)} s = ${(c.frames / run.seconds).toFixed(1)} frames/s  (load ${load()})`);
        if (who === "ours" && i === 0) for (const line of run.output.trim().split("\n").filter((l) => l.startsWith("timeline"))) console.log(`    ${line}`);
      }
    }
  } finally {
    await rm(project, { recursive: true, force: true });
  }
  const of = (who: Run["who"]) => results.filter((r) => r.who === who).map((r) => r.seconds);
  const failed = failures.length ? ` (failed: ${failures.join(", ")})` : "";
  if (of("ours").length === 0 || (c.reference && of("theirs").length === 0)) return `| ${c.name} | - | - | - | - | no result${failed} |`;
  const ours = median(of("ours"));
  // The same runs without Node's start and the imports (the child prints renderProject's own wall time): what a
  // running render node spends on the job. Said beside the process figure, which the goals are judged on.
  const inRender = results.filter((r) => r.who === "ours").map((r) => Number(/([\d.]+) s in renderProject/.exec(r.output)?.[1])).filter(Number.isFinite);
  const alone = inRender.length ? median(inRender) : Number.NaN;
  if (!c.reference) {
    const verdict = ours <= c.goalSeconds! ? "met" : "NOT met";
    console.log(`median ours ${ours.toFixed(2)} s (goal <= ${c.goalSeconds} s: ${verdict})`);
    return `| ${c.name} | ${ours.toFixed(1)} s (render alone ${alone.toFixed(1)} s) | - | - | - | <= ${c.goalSeconds} s: ${verdict}${failed} |`;
  }
  const theirs = median(of("theirs"));
  // Pairs run back to back; a pair with a failed run is left out.
  const pairs = pairRatios(results.map((r) => ({ ...r, run: r.run! })), runs);
  const ratio = ours / theirs;
  const verdict = ratio <= c.goalRatio! ? "met" : "NOT met";
  console.log(`median ours ${ours.toFixed(2)} s, theirs ${theirs.toFixed(2)} s, ratio ${ratio.toFixed(3)}; pairs ${pairs.map((p) => p.toFixed(3)).join(", ")} (median ${median(pairs).toFixed(3)}); goal <= ${c.goalRatio}: ${verdict}`);
  console.log(`ours in renderProject alone (no process start or imports): median ${alone.toFixed(2)} s, ${(alone / theirs).toFixed(3)} of theirs`);
  return `| ${c.name} | ${ours.toFixed(1)} s (render alone ${alone.toFixed(1)} s) | ${theirs.toFixed(1)} s | ${ratio.toFixed(2)} (render alone ${(alone / theirs).toFixed(2)}) | ${pairs.map((p) => p.toFixed(2)).join(", ")} | <= ${c.goalRatio}: ${verdict}${failed} |`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "3" },
      "long-runs": { type: "string", default: "1" },
      only: { type: "string" },
      "render-ours": { type: "string" },
      output: { type: "string" },
      quality: { type: "string", default: "standard" },
    },
  });
  if (values["render-ours"]) {
    await renderOursOnce(values["render-ours"], values.output!, values.quality as Quality);
    return;
  }
  const runs = Number(values.runs);
  const longRuns = Number(values["long-runs"]);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(longRuns) || longRuns < 1) throw new Error("--runs and --long-runs: positive integers");
  const names = values.only ? values.only.split(",").map((s) => s.trim()) : SPEED_CASES.map((c) => c.name);
  const unknown = names.filter((n) => !SPEED_CASES.some((c) => c.name === n));
  if (unknown.length) throw new Error(`unknown case ${unknown.join(", ")} (have: ${SPEED_CASES.map((c) => c.name).join(", ")})`);
  const binaries = await resolveBinaries();
  const node22 = await ensureReference();
  console.log(`theirs  hyperframes@${HYPERFRAMES_VERSION} on Node ${node22}; ours renderProject on Node ${process.version}, ${binaries.chrome}`);
  console.log(`load before ${load()}`);
  const rows: string[] = [];
  for (const c of SPEED_CASES.filter((c) => names.includes(c.name))) rows.push(await benchCase(c, c.reference ? runs : longRuns, binaries));
  console.log(`\nload after ${load()}\n`);
  console.log("| case | ours (median) | HyperFrames (median) | ratio of medians | pair ratios | goal |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const row of rows) console.log(row);
}

if (import.meta.main) await main();
