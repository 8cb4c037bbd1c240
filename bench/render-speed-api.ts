// Render speed against HyperFrames 0.8.170 as an agent gets it (issue 35, point 5): through the studio's API. One
// local studio (wrangler dev with D1, R2 and Durable Objects, scripts/lib/local-studio.ts) and its render node start
// once, outside the timings, and render one warm-up; then each case of bench/lib/speed-cases.ts that HyperFrames
// renders too (reference, starter, holds) runs in alternating pairs, ours then theirs:
//   ours: POST /api/projects/<slug>/render?wait=1 with force: true, timed from the POST to the done answer and the
//     file downloaded (queue, claim, the project's download, the render, upload, poster and completion included);
//   theirs: HyperFrames' CLI rendering the same files, a fresh process (bench/lib/hyperframes-reference.ts).
// Each case's files are pushed before its first pair into one new project per run, as an agent pushes them
// (`studio push`, cli/studio.ts). So each timed render is its project's first: there is no earlier render to carry
// segments from (the claim names none, worker/renders/carry.ts) or to answer from the render cache (which force:
// true skips anyway), and the bench refuses an answer that says otherwise (carriedFrom, reusedFrom).
// Prints each run with the load average and the CPU seconds of each side's process trees (ours: the render node and
// wrangler dev with workerd; theirs: the CLI with its browser and ffmpeg), where our render spent its time (the node's
// log lines against the POST: bench/lib/api-render-marks.ts), the medians, each pair's ratio and the ratio of medians.
//
//   node_modules/.bin/node bench/render-speed-api.ts [--runs 3] [--only reference,starter,holds] [--port 18870]
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { buildDashboard } from "../scripts/lib/dashboard.ts";
import { startStudio, type RunningStudio } from "../scripts/lib/local-studio.ts";
import { slugify } from "../core/paths/slugify.ts";
import { resolveBinaries, type Binaries } from "../render-node/src/system/resolve-binaries.ts";
import { HYPERFRAMES_VERSION, ensureReference, renderReference } from "./lib/hyperframes-reference.ts";
import { runProcess } from "./lib/run-process.ts";
import { SPEED_CASES, type SpeedCase } from "./lib/speed-cases.ts";
import { attemptRun, load, median, pairRatios, type TimedRun } from "./lib/speed-pairs.ts";
import { sampleTreeCpu, type TreeCpu } from "./lib/tree-cpu-sampler.ts";
import { formatMarks, MARK_ORDER, nodeMarks, readNodeLines, type Marks, type NodeLine } from "./lib/api-render-marks.ts";

const CLI = fileURLToPath(new URL("../cli/studio.ts", import.meta.url));

interface Run extends TimedRun {
  /** CPU seconds of the side's process trees during the run. */
  cpu: number;
  marks?: Marks;
  /** Our node's own `timeline:` line. */
  timeline?: string;
}

/** The studio, signed in, and the node's lines as they came. */
interface Session {
  studio: RunningStudio;
  token: string;
  nodeLines: NodeLine[];
}

/**
 * POST with a JSON body, answered when the render ends. node:http rather than fetch: fetch gives up on an answer whose
 * headers take over 300 s, which a long render on a loaded machine can.
 */
function postHeld(url: string, token: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(url, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** Pushes `folder` into a new project named `name` with the CLI, as an agent does; returns its slug. */
async function push(session: Session, folder: string, name: string): Promise<{ slug: string; said: string }> {
  const slug = slugify(name);
  const said = await runProcess(process.execPath, [CLI, "push", folder, "--project", name], { ...process.env, STUDIO_URL: session.studio.url, STUDIO_TOKEN: session.token });
  // "updating project" would be an existing project, whose earlier renders a render could carry from.
  if (!said.includes(`created project ${slug}`)) throw new Error(`push of ${name} did not create project ${slug}:\n${said}`);
  return { slug, said: said.trim().split("\n").slice(-1)[0]! };
}

/** One render of ours through the API: POST (force, wait) to the done answer, then the file downloaded. */
async function renderOurs(session: Session, slug: string, c: SpeedCase, output: string, run: number): Promise<Run> {
  const { studio, token } = session;
  const cpu = sampleTreeCpu([studio.node!.pid!, studio.worker.pid!]);
  const postedAt = Date.now();
  const started = performance.now();
  let timed: Omit<Run, "cpu">;
  try {
    const answer = await postHeld(`${studio.url}/api/projects/${slug}/render?wait=1`, token, { quality: c.quality, format: "mp4", force: true });
    const answered = performance.now();
    // Not JSON: e.g. wrangler dev's "Your worker restarted mid-request" when a file it watches changed (tests run in
    // the same checkout rebuild dashboard/dist and the page runtime).
    if (!answer.text.startsWith("{")) throw new Error(`render answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    const state = JSON.parse(answer.text) as { status?: string; error?: string; downloadUrl?: string | null; reusedFrom?: string; carriedFrom?: string; lines?: string[] };
    if (state.status !== "done" || !state.downloadUrl) throw new Error(`render ${answer.status} ${state.status}: ${state.error ?? ""}\n${(state.lines ?? []).slice(-8).join("\n")}`);
    if (state.reusedFrom || state.carriedFrom) throw new Error(`the render was not rendered anew: reusedFrom ${state.reusedFrom}, carriedFrom ${state.carriedFrom}`);
    const file = await fetch(`${studio.url}${state.downloadUrl}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!file.ok || !file.body) throw new Error(`download ${state.downloadUrl}: ${file.status}`);
    await pipeline(Readable.fromWeb(file.body as WebReadableStream<Uint8Array>), createWriteStream(output));
    const seconds = (performance.now() - started) / 1000;
    const marks: Marks = { ...nodeMarks(session.nodeLines, postedAt), answered: (answered - started) / 1000, file: seconds };
    const timeline = (state.lines ?? []).find((l) => l.startsWith("timeline:"));
    timed = { who: "ours", run, seconds, marks, ...(timeline ? { timeline } : {}) };
  } catch (error) {
    cpu.stop();
    throw error;
  }
  return { ...timed, cpu: cpu.stop() };
}

async function renderTheirs(project: string, c: SpeedCase, output: string, binaries: Binaries, run: number): Promise<Run> {
  // Sampled from the moment the CLI's process exists (its browser and ffmpeg are its descendants).
  const tree: { cpu?: TreeCpu } = {};
  const started = performance.now();
  try {
    await renderReference(project, output, { quality: c.quality, format: "mp4", onStart: (pid) => (tree.cpu = sampleTreeCpu([pid])) }, binaries);
  } catch (error) {
    tree.cpu?.stop();
    throw error;
  }
  const seconds = (performance.now() - started) / 1000;
  return { who: "theirs", run, seconds, cpu: tree.cpu?.stop() ?? Number.NaN };
}

async function benchCase(session: Session, c: SpeedCase, runs: number, binaries: Binaries): Promise<{ row: string; where: string }> {
  const project = await c.make(binaries.ffmpeg);
  const out = await mkdtemp(join(tmpdir(), "studio-speed-api-out-"));
  const loadBefore = load();
  console.log(`\n## ${c.name}: ${c.what} (${c.frames} frames)  project ${project}  load ${loadBefore}`);
  const results: Run[] = [];
  const failures: string[] = [];
  try {
    // Every run's project is pushed before any render of the case: HyperFrames' render writes nothing into them.
    const slugs: string[] = [];
    for (let i = 0; i < runs; i++) {
      const pushed = await push(session, project, `speed ${c.name} ${i + 1} ${Date.now().toString(36)}`);
      slugs.push(pushed.slug);
      if (i === 0) console.log(`pushed: ${pushed.said}`);
    }
    for (let i = 0; i < runs; i++) {
      for (const who of ["ours", "theirs"] as const) {
        const run = await attemptRun(who, i, who === "ours"
          ? renderOurs(session, slugs[i]!, c, join(out, `ours-${i}.mp4`), i)
          : renderTheirs(project, c, join(out, `theirs-${i}.mp4`), binaries, i), failures);
        if (!run) continue;
        results.push(run);
        console.log(`run ${i + 1} ${who.padEnd(6)} ${run.seconds.toFixed(2)} s, cpu ${run.cpu.toFixed(1)} s  (load ${load()})`);
        if (run.marks) console.log(`    after the POST (s): ${formatMarks(run.marks)}`);
        if (run.timeline && i === 0) console.log(`    node ${run.timeline}`);
      }
    }
  } finally {
    await rm(project, { recursive: true, force: true });
    await rm(out, { recursive: true, force: true });
  }
  const of = (who: Run["who"]) => results.filter((r) => r.who === who);
  const failed = failures.length ? ` (failed: ${failures.join(", ")})` : "";
  const loads = `${loadBefore.split(" ")[0]} → ${load().split(" ")[0]}`;
  if (of("ours").length === 0 || of("theirs").length === 0) return { row: `| ${c.name} | - | - | - | - | - | ${loads} | no result${failed} |`, where: "" };
  const ours = median(of("ours").map((r) => r.seconds));
  const theirs = median(of("theirs").map((r) => r.seconds));
  const cpuOurs = median(of("ours").map((r) => r.cpu));
  const cpuTheirs = median(of("theirs").map((r) => r.cpu));
  const pairs = pairRatios(results, runs);
  const ratio = ours / theirs;
  const verdict = ratio <= c.goalRatio! ? "met" : "NOT met";
  console.log(`median ours ${ours.toFixed(2)} s, theirs ${theirs.toFixed(2)} s, ratio ${ratio.toFixed(3)}; pairs ${pairs.map((p) => p.toFixed(3)).join(", ")} (median ${median(pairs).toFixed(3)}); cpu ${cpuOurs.toFixed(1)} against ${cpuTheirs.toFixed(1)} s (${(cpuOurs / cpuTheirs).toFixed(3)}); goal <= ${c.goalRatio}: ${verdict}`);
  // Each moment's median over the runs, after the POST: where the time goes through the API.
  const where = MARK_ORDER.map((name) => {
    const at = of("ours").map((r) => r.marks?.[name]).filter((v): v is number => v !== undefined);
    return at.length ? `${name} ${median(at).toFixed(2)}` : null;
  }).filter(Boolean).join("; ");
  console.log(`medians after the POST (s): ${where}`);
  return {
    row: `| ${c.name} | ${ours.toFixed(1)} s | ${theirs.toFixed(1)} s | ${ratio.toFixed(2)} | ${pairs.map((p) => p.toFixed(2)).join(", ")} | ${cpuOurs.toFixed(1)} / ${cpuTheirs.toFixed(1)} s (${(cpuOurs / cpuTheirs).toFixed(2)}) | ${loads} | <= ${c.goalRatio}: ${verdict}${failed} |`,
    where: `| ${c.name} | ${where} |`,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "3" }, only: { type: "string" }, port: { type: "string", default: "18870" } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs: a positive integer");
  const paired = SPEED_CASES.filter((c) => c.reference);
  const names = values.only ? values.only.split(",").map((s) => s.trim()) : paired.map((c) => c.name);
  const unknown = names.filter((n) => !paired.some((c) => c.name === n));
  if (unknown.length) throw new Error(`unknown case ${unknown.join(", ")} (have: ${paired.map((c) => c.name).join(", ")})`);
  const cases = paired.filter((c) => names.includes(c.name));
  const binaries = await resolveBinaries();
  const node22 = await ensureReference();
  console.log(`theirs  hyperframes@${HYPERFRAMES_VERSION} on Node ${node22}; ours a local studio and render node on Node ${process.version}, ${binaries.chrome}`);
  await buildDashboard();
  const data = await mkdtemp(join(tmpdir(), "studio-speed-api-"));
  const nodeLines: NodeLine[] = [];
  const starting = performance.now();
  const studio = await startStudio({
    port: Number(values.port), dataDir: data,
    log: (chunk) => {
      if (chunk.startsWith("[node] ")) nodeLines.push(...readNodeLines(chunk));
    },
  });
  try {
    const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"speed-api"}' });
    const { token } = (await login.json()) as { token: string };
    const session: Session = { studio, token, nodeLines };
    console.log(`studio up in ${((performance.now() - starting) / 1000).toFixed(1)} s`);
    // The warm-up: the routes' first requests, the node's first job, the first browser's start from a cold disk.
    const warm = await cases[0]!.make(binaries.ffmpeg);
    try {
      const { slug } = await push(session, warm, `speed warm-up ${Date.now().toString(36)}`);
      const run = await renderOurs(session, slug, cases[0]!, join(data, "warm-up.mp4"), -1);
      console.log(`warm-up (${cases[0]!.name}): ${run.seconds.toFixed(2)} s; load before the pairs ${load()}`);
    } finally {
      await rm(warm, { recursive: true, force: true });
    }
    const rows: { row: string; where: string }[] = [];
    for (const c of cases) rows.push(await benchCase(session, c, runs, binaries));
    console.log(`\nload after ${load()}\n`);
    console.log("| case | ours through the API (median) | HyperFrames (median) | ratio of medians | pair ratios | CPU s, ours / theirs (medians) | load (1 min) | goal |");
    console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const { row } of rows) console.log(row);
    console.log("\n| case | our render's moments, seconds after the POST (medians) |");
    console.log("| --- | --- |");
    for (const { where } of rows) if (where) console.log(where);
  } finally {
    await studio.stop();
    await rm(data, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
