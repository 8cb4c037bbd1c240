// The render cost model's fit and its check (issue 34, point 3). Not part of `npm test`: it renders for minutes.
//
//   node_modules/.bin/node bench/cost-model.ts fit     renders bench/lib/cost-cases.ts (twice each), fits core/render/cost-model.ts'
//                                                   coefficients by least squares, writes core/render/cost-model-fit.ts
//   node_modules/.bin/node bench/cost-model.ts check   renders renders the model never saw (bench/parity-corpus, the
//                                                   speed cases but the 60 s one) and prints how often the actual seconds
//                                                   fall within ±25 % of the estimate (goal: 80 %), raw and scaled by
//                                                   the recent throughput the way the Worker scales its quotes
//
// A render is timed as a node's job is (renderProject in this process: plan, capture, encode, mix; the project's
// download and the upload are not in it). Run it on a quiet machine: the load average is printed with the figures.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { availableParallelism, hostname, loadavg, cpus, tmpdir } from "node:os";
import { join } from "node:path";
import MLR from "ml-regression-multivariate-linear";
import { countLimitFrames } from "../core/composition/composition-limits.ts";
import { readCompositionCostFacts } from "../core/composition/read-cost-facts.ts";
import { COST_TERMS, costFeatures, costTerms, estimateSeconds, throughputScale, type CostCoefficients, type CostFeatures, type CostTerm } from "../core/render/cost-model.ts";
import { COST_MODEL_FIT } from "../core/render/cost-model-fit.ts";
import { outputSize } from "../core/render/output-size.ts";
import { FORMAT_EXTENSIONS, type Format, type Quality } from "../core/render/render-options.ts";
import { renderRate } from "../core/render/render-rate.ts";
import { renderProject } from "../render-node/src/render-project.ts";
import { resolveBinaries } from "../render-node/src/system/resolve-binaries.ts";
import { COST_CASES } from "./lib/cost-cases.ts";
import { ensureShaderPackage, writePackageFiles } from "./lib/hyperframes-reference.ts";
import { parseCaseOptions } from "./lib/parity-case.ts";
import { makeAssets } from "./lib/parity-media.ts";
import { SPEED_CASES } from "./lib/speed-cases.ts";

interface Job {
  name: string;
  project: string;
  quality: Quality;
  format: Format;
  fps: number | null;
  variables?: Record<string, unknown> | undefined;
}

/** How many recent renders the throughput scale looks at (the Worker reads the same number). */
const RECENT = 5;
/** A render here captures with as many browsers as a node of this machine: one a core (renderProject's default). */
const BROWSERS = availableParallelism();
const WITHIN = 0.25;

/** The features the Worker reads of the job's composition before any node opens it. */
async function featuresOf(job: Job): Promise<CostFeatures> {
  const facts = readCompositionCostFacts(await readFile(join(job.project, "index.html"), "utf8"));
  if (!facts) throw new Error(`${job.name}: no root`);
  const rate = renderRate({ fps: job.fps, format: job.format }, facts.size.fps).fps;
  const size = outputSize(facts.size, { resolution: null, format: job.format });
  if (!size || facts.size.duration === null) throw new Error(`${job.name}: the root declares no size or duration`);
  return costFeatures({ frames: countLimitFrames(facts.size.duration, rate), fps: rate, ...size, format: job.format, quality: job.quality }, facts, BROWSERS);
}

/** Wall seconds of one whole render of the job. */
async function timeRender(job: Job): Promise<number> {
  const out = await mkdtemp(join(tmpdir(), "studio-cost-out-"));
  try {
    const started = performance.now();
    await renderProject({
      projectDir: job.project, outputPath: join(out, `out.${FORMAT_EXTENSIONS[job.format]}`), quality: job.quality, format: job.format,
      fps: job.fps ?? undefined, variables: job.variables, signal: new AbortController().signal, onLine: () => {},
    });
    return (performance.now() - started) / 1000;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/**
 * Terms that are a cost of their own can only add time; the format and quality terms are differences from mp4 at
 * standard quality and may be negative (a draft encodes faster).
 */
const ADDS_TIME: ReadonlySet<CostTerm> = new Set([
  "fixed", "frame", "megapixelFrame", "pathFrame", "pathMegapixelFrame", "videoClipFrame", "audioClip", "shaderFrame", "alphaMegapixelFrame",
  "webmAlphaMegapixelFrame", "filterMegapixelFrame",
]);

/**
 * Least squares of the relative error (each row divided by its measured seconds: the goal is within ±25 % of each
 * render, and plain least squares would fit the few long renders at the short ones' expense), with any term of
 * ADDS_TIME that comes out negative (noise in a small sample) pinned to zero and the rest fitted again, the most
 * negative first. Every term of COST_TERMS has cases (cost-cases.ts), so the system is never singular.
 */
function fitCoefficients(rows: Array<{ features: CostFeatures; seconds: number }>): CostCoefficients {
  const free = new Set<CostTerm>(COST_TERMS);
  for (;;) {
    const terms = COST_TERMS.filter((t) => free.has(t));
    const x = rows.map((r) => terms.map((t) => costTerms(r.features)[t] / r.seconds));
    const model = new MLR(x, rows.map(() => [1]), { intercept: false, statistics: false });
    const weights = new Map(terms.map((t, k) => [t, model.weights[k]![0]!]));
    const worst = terms.filter((t) => ADDS_TIME.has(t) && weights.get(t)! < 0).sort((a, b) => weights.get(a)! - weights.get(b)!)[0];
    if (worst) {
      free.delete(worst);
      continue;
    }
    return Object.fromEntries(COST_TERMS.map((t) => [t, Number((weights.get(t) ?? 0).toPrecision(4))])) as CostCoefficients;
  }
}

const load = () => loadavg()[0]!.toFixed(1);
const pad = (text: string | number, n: number) => String(text).padEnd(n);

async function fit(): Promise<void> {
  const { ffmpeg } = await resolveBinaries();
  const rows: Array<{ name: string; features: CostFeatures; seconds: number }> = [];
  const loads: string[] = [load()];
  for (const c of COST_CASES) {
    const project = await c.make(ffmpeg);
    const job = { name: c.name, project, quality: c.quality, format: c.format, fps: c.fps };
    const features = await featuresOf(job);
    // Twice, the mean: one render's wall time moves by 10 to 15 % from run to run here.
    const seconds = ((await timeRender(job)) + (await timeRender(job))) / 2;
    await rm(project, { recursive: true, force: true });
    rows.push({ name: c.name, features, seconds });
    console.log(`${pad(c.name, 22)} ${pad(`${features.frames} frames ${features.width}x${features.height}`, 26)} ${seconds.toFixed(2)} s (load ${load()})`);
  }
  loads.push(load());
  const coefficients = fitCoefficients(rows);
  console.log("\nterm                         seconds");
  for (const t of COST_TERMS) console.log(`${pad(t, 28)} ${coefficients[t]}`);
  console.log("\ncase                   actual  fitted");
  for (const r of rows) console.log(`${pad(r.name, 22)} ${r.seconds.toFixed(2).padStart(6)}  ${estimateSeconds(r.features, coefficients).toFixed(2).padStart(6)}`);
  const when = new Date().toISOString().slice(0, 10);
  const machine = `${hostname()}, ${cpus().length} cores (${cpus()[0]?.model.trim() ?? "unknown"}), load ${loads.join(" to ")}`;
  // To the minute: the Worker scales quotes by renders quoted with this very fit (recent-throughput.ts), never an earlier one of the same day.
  const version = `fitted-${new Date().toISOString().slice(0, 16)}`;
  await writeFile(
    new URL("../core/render/cost-model-fit.ts", import.meta.url),
    `// Written by \`node bench/cost-model.ts fit\` (do not edit by hand): the cost model's coefficients (cost-model.ts),
// fitted by least squares to ${rows.length} renders of bench/lib/cost-cases.ts. Seconds per unit of each term.
import type { CostCoefficients } from "./cost-model.ts";

export interface CostModelFit {
  version: string;
  fittedOn: string;
  machine: string;
  /** The browsers a node captured with in the fit's renders (its cores): the model is of nodes like it. */
  browsers: number;
  coefficients: CostCoefficients;
}

export const COST_MODEL_FIT: CostModelFit = ${JSON.stringify({ version, fittedOn: when, machine, browsers: BROWSERS, coefficients }, null, 2)};
`,
  );
  console.log(`\nwrote core/render/cost-model-fit.ts (${version})`);
}

/** The held-out renders: every parity case (its first run's options) but the shader one the fit used, and the speed cases under a minute. */
async function checkJobs(ffmpeg: string): Promise<Job[]> {
  const corpus = new URL("./parity-corpus/", import.meta.url).pathname;
  const assets = await mkdtemp(join(tmpdir(), "studio-cost-assets-"));
  await makeAssets(assets, ffmpeg);
  await ensureShaderPackage();
  const jobs: Job[] = [];
  for (const name of (await readdir(corpus, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    if (name === "shader-transition") continue;
    const text = await readFile(join(corpus, name, "parity.json"), "utf8").catch(() => null);
    const options = parseCaseOptions(text);
    const project = await mkdtemp(join(tmpdir(), "studio-cost-"));
    await cp(join(corpus, name), project, { recursive: true, filter: (src) => !src.endsWith("parity.json") });
    await cp(assets, join(project, "assets"), { recursive: true });
    // A case that vendors a package's file (the shader library as a project file) gets it, as parity.ts gives it.
    await writePackageFiles(project);
    jobs.push({ name, project, quality: "standard", format: options.format, fps: null, variables: options.runs[0] });
  }
  for (const s of SPEED_CASES.filter((c) => c.frames <= 600)) {
    jobs.push({ name: `speed:${s.name}`, project: await s.make(ffmpeg), quality: s.quality, format: "mp4", fps: null });
  }
  return jobs;
}

async function check(): Promise<void> {
  const { ffmpeg } = await resolveBinaries();
  const jobs = await checkJobs(ffmpeg);
  const { coefficients, version } = COST_MODEL_FIT;
  const ratios: number[] = [];
  let rawHits = 0;
  let scaledHits = 0;
  const startLoad = load();
  console.log(`model ${version}; ${jobs.length} renders the fit never saw\n`);
  console.log("case                        estimate  scaled  actual  actual/scaled");
  for (const job of jobs) {
    const raw = estimateSeconds(await featuresOf(job), coefficients);
    const scaled = raw * throughputScale(ratios.slice(-RECENT));
    const actual = await timeRender(job);
    await rm(job.project, { recursive: true, force: true });
    ratios.push(actual / raw);
    if (Math.abs(actual / raw - 1) <= WITHIN) rawHits++;
    if (Math.abs(actual / scaled - 1) <= WITHIN) scaledHits++;
    console.log(`${pad(job.name, 28)} ${raw.toFixed(2).padStart(7)} ${scaled.toFixed(2).padStart(7)} ${actual.toFixed(2).padStart(7)}  ${(actual / scaled).toFixed(2)}`);
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const pct = (n: number) => `${Math.round((100 * n) / jobs.length)} %`;
  console.log(`\nwithin ±25 %: ${rawHits}/${jobs.length} (${pct(rawHits)}) of the estimates; ${scaledHits}/${jobs.length} (${pct(scaledHits)}) scaled by the last ${RECENT} renders' throughput (goal 80 %)`);
  console.log(`median actual/estimate ${sorted[sorted.length >> 1]!.toFixed(2)}; load ${startLoad} to ${load()}`);
}

const mode = process.argv[2];
if (mode === "fit") await fit();
else if (mode === "check") await check();
else throw new Error("usage: node bench/cost-model.ts fit|check");
