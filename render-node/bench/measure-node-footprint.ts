// What one render node needs, for sizing its container (render-node/README.md, "Sizing"): a real studio and a real
// node process render the benchmark composition (1920x1080, 30 fps, 6 s, a sub-composition and audio; bench-render.ts)
// through the API, once per NODE_CONCURRENCY, then take snapshots (the browser-job loop's one browser) while
// /proc is sampled. Prints, per run: the peak memory of each capture browser (its whole process tree, RSS and PSS),
// of each ffmpeg, of the node process itself and of everything together; each browser's capture speed; and the
// peak size of the node's temp folder (chunks, segments, profiles, the project's files).
//   node render-node/bench/measure-node-footprint.ts [--concurrency 1,2] [--quality standard]
// Memory figures are robust; speeds depend on what else the machine runs (the load average is printed).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import type { ChildProcess } from "node:child_process";
import { buildDashboard } from "../../scripts/lib/dashboard.ts";
import { startRenderNode, startStudio, type RunningStudio } from "../../scripts/lib/local-studio.ts";
import { resolveBinaries } from "../src/system/resolve-binaries.ts";
import { makeBenchProject } from "./bench-render.ts";
import { isNotFound } from "../src/system/debug-log.ts";

interface Sample {
  pid: number;
  ppid: number;
  name: string;
  args: string[];
  rssKb: number;
  pssKb: number;
}

/** One process's identity and memory from /proc, or null when it is gone (or a zombie). */
function readProcess(pid: number): Sample | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z") return null;
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    // PSS shares each page among the processes that map it: the sum over a tree is what it really occupies.
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(rollup)?.[1] ?? 0);
    return { pid, ppid: Number(fields[1]), name: basename(args[0] ?? ""), args, rssKb: kb("Rss"), pssKb: kb("Pss") };
  } catch (error) {
    // Gone between the listing and the read (ESRCH for a /proc file of an exited process): no memory to count.
    if (isNotFound(error) || (error as NodeJS.ErrnoException).code === "ESRCH") return null;
    throw error;
  }
}

/** `root` and every live process below it. */
function processTree(root: number): Sample[] {
  const all = readdirSync("/proc").filter((n) => /^\d+$/.test(n)).map((n) => readProcess(Number(n))).filter((s) => s !== null);
  const byParent = new Map<number, Sample[]>();
  for (const s of all) byParent.set(s.ppid, [...(byParent.get(s.ppid) ?? []), s]);
  const top = all.find((s) => s.pid === root);
  if (!top) return [];
  const found = [top];
  for (let i = 0; i < found.length; i++) found.push(...(byParent.get(found[i]!.pid) ?? []));
  return found;
}

const isChromium = (s: Sample) => /chrom|headless/i.test(s.name);

/** Bytes in the files below `dir` (0 when it is gone). */
function folderBytes(dir: string): number {
  let total = 0;
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name), { throwIfNoEntry: false })?.size ?? 0;
    }
  } catch (error) {
    // The folder removed meanwhile: what was counted so far.
    if (!isNotFound(error)) throw error;
  }
  return total;
}

interface Peaks {
  /** Per browser (keyed by its top Chromium process): peak RSS and PSS of its tree, first and last seen. */
  browsers: Map<number, { rssKb: number; pssKb: number; first: number; last: number }>;
  /** Per ffmpeg process: peak RSS and PSS, whether it encodes a chunk (JPEG frames on stdin), first and last seen. */
  ffmpegs: Map<number, { rssKb: number; pssKb: number; chunk: boolean; first: number; last: number }>;
  nodeRssKb: number;
  totalRssKb: number;
  totalPssKb: number;
  scratchBytes: number;
}

/** Samples the node's process tree and temp folder every `everyMs` until stopped. */
function sampleNode(nodePid: number, scratch: string, everyMs = 150): { stop: () => Peaks } {
  const peaks: Peaks = { browsers: new Map(), ffmpegs: new Map(), nodeRssKb: 0, totalRssKb: 0, totalPssKb: 0, scratchBytes: 0 };
  const tick = () => {
    const now = performance.now();
    const tree = processTree(nodePid);
    const byPid = new Map(tree.map((s) => [s.pid, s]));
    const browserOf = (s: Sample): number => {
      let top = s;
      for (let up = byPid.get(s.ppid); up && isChromium(up); up = byPid.get(up.ppid)) top = up;
      return top.pid;
    };
    const sums = new Map<number, { rssKb: number; pssKb: number }>();
    for (const s of tree.filter(isChromium)) {
      const key = browserOf(s);
      const sum = sums.get(key) ?? { rssKb: 0, pssKb: 0 };
      sums.set(key, { rssKb: sum.rssKb + s.rssKb, pssKb: sum.pssKb + s.pssKb });
    }
    for (const [pid, sum] of sums) {
      const seen = peaks.browsers.get(pid) ?? { rssKb: 0, pssKb: 0, first: now, last: now };
      peaks.browsers.set(pid, { rssKb: Math.max(seen.rssKb, sum.rssKb), pssKb: Math.max(seen.pssKb, sum.pssKb), first: seen.first, last: now });
    }
    for (const s of tree.filter((p) => p.name === "ffmpeg")) {
      const seen = peaks.ffmpegs.get(s.pid) ?? { rssKb: 0, pssKb: 0, chunk: s.args.includes("ivf") || s.args.includes("image2pipe"), first: now, last: now };
      peaks.ffmpegs.set(s.pid, { ...seen, rssKb: Math.max(seen.rssKb, s.rssKb), pssKb: Math.max(seen.pssKb, s.pssKb), last: now });
    }
    peaks.nodeRssKb = Math.max(peaks.nodeRssKb, byPid.get(nodePid)?.rssKb ?? 0);
    peaks.totalRssKb = Math.max(peaks.totalRssKb, tree.reduce((n, s) => n + s.rssKb, 0));
    peaks.totalPssKb = Math.max(peaks.totalPssKb, tree.reduce((n, s) => n + s.pssKb, 0));
    peaks.scratchBytes = Math.max(peaks.scratchBytes, folderBytes(scratch));
  };
  const timer = setInterval(tick, everyMs);
  return {
    stop() {
      clearInterval(timer);
      tick();
      return peaks;
    },
  };
}

const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;

/** The node's own peak RSS over its whole life (VmHWM), which sampling might miss. */
function peakRssKb(pid: number): number {
  try {
    return Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch (error) {
    // The node already gone: its peak is unknown, reported as 0.
    if (isNotFound(error) || (error as NodeJS.ErrnoException).code === "ESRCH") return 0;
    throw error;
  }
}

/** Waits for a line matching `pattern` in what `read` returns. */
async function waitForLine(read: () => string, pattern: RegExp, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(read())) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the node did not print ${pattern}:\n${read()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function printPeaks(title: string, peaks: Peaks, frames: number, nodePeakKb: number): void {
  console.log(`\n${title}`);
  for (const [pid, b] of peaks.browsers) console.log(`  browser ${pid}: peak RSS ${mib(b.rssKb)} (tree sum), PSS ${mib(b.pssKb)}, alive ${((b.last - b.first) / 1000).toFixed(1)} s`);
  const chunks = [...peaks.ffmpegs.values()].filter((f) => f.chunk);
  for (const [pid, f] of peaks.ffmpegs) console.log(`  ffmpeg ${pid} (${f.chunk ? "chunk encoder" : "join/mix"}): peak RSS ${mib(f.rssKb)}, PSS ${mib(f.pssKb)}`);
  // A chunk encoder lives exactly as long as its browser captures its range: frames per chunk over that time.
  if (chunks.length && frames) {
    const speeds = chunks.map((f) => frames / chunks.length / ((f.last - f.first) / 1000));
    console.log(`  capture: ${speeds.map((s) => `${s.toFixed(1)}`).join(", ")} frames/s per browser (${frames} frames in ${chunks.length} chunk${chunks.length === 1 ? "" : "s"})`);
  }
  console.log(`  node process: peak RSS ${mib(Math.max(peaks.nodeRssKb, nodePeakKb))}`);
  console.log(`  everything (node + children): peak RSS ${mib(peaks.totalRssKb)} (sum), PSS ${mib(peaks.totalPssKb)}`);
  console.log(`  temp folder: peak ${(peaks.scratchBytes / 1e6).toFixed(1)} MB`);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { concurrency: { type: "string", default: "1,2" }, quality: { type: "string", default: "standard" } } });
  const levels = values.concurrency.split(",").map(Number);
  const binaries = await resolveBinaries();
  const work = await mkdtemp(join(tmpdir(), "studio-footprint-"));
  const project = await makeBenchProject(binaries.ffmpeg);
  let studio: RunningStudio | undefined;
  let node: ChildProcess | undefined;
  try {
    await buildDashboard(); // wrangler dev serves it and refuses to start without it
    studio = await startStudio({ port: 26_000 + Math.floor(Math.random() * 2000), dataDir: join(work, "data"), renderNode: false });
    const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "footprint" }) });
    const { token } = (await login.json()) as { token: string };
    const call = (method: string, path: string, body?: BodyInit, type = "application/json") =>
      fetch(`${studio!.url}${path}`, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": type }, body });
    await call("POST", "/api/projects", JSON.stringify({ name: "Footprint", html: await readFile(join(project, "index.html"), "utf8") }));
    await call("PUT", "/api/projects/footprint/files/compositions/intro.html", await readFile(join(project, "compositions", "intro.html"), "utf8"), "text/html");
    await call("PUT", "/api/projects/footprint/files/assets/tone.wav", new Uint8Array(await readFile(join(project, "assets", "tone.wav"))), "audio/wav");
    console.log(`chrome ${binaries.chrome}\nffmpeg ${binaries.ffmpeg}\nload average before: ${loadavg().map((l) => l.toFixed(1)).join(" ")} on this machine's ${(await import("node:os")).availableParallelism()} cores`);

    for (const concurrency of levels) {
      // Its own TMPDIR, so its temp folder is measured alone; the binaries as resolved here (as the image's ENV does).
      const tmp = await mkdtemp(join(work, `tmp-${concurrency}-`));
      let log = "";
      node = startRenderNode(studio.url, studio.nodeKey, {
        NODE_CONCURRENCY: String(concurrency), NODE_ID: `footprint-${concurrency}`, TMPDIR: tmp,
        CHROME_PATH: binaries.chrome, FFMPEG_PATH: binaries.ffmpeg, FFPROBE_PATH: binaries.ffprobe,
        // Wide stage bounds: on a busy machine an encoder may fall behind for longer than the 10 s default.
        FRAME_TIMEOUT_MS: "120000", ENCODE_TIMEOUT_MS: "600000",
      }, (line) => (log += `${line}\n`));
      await waitForLine(() => log, /render node footprint-/, node);
      await new Promise((r) => setTimeout(r, 1000));
      console.log(`\nNODE_CONCURRENCY=${concurrency}: idle node RSS ${mib(readProcess(node.pid!)?.rssKb ?? 0)}`);

      let sampler = sampleNode(node.pid!, join(tmp, "studio-node"));
      const started = performance.now();
      const res = await call("POST", "/api/projects/footprint/render?wait=1", JSON.stringify({ format: "mp4", quality: values.quality }));
      const render = (await res.json()) as { status: string; lines?: string[] };
      const wall = (performance.now() - started) / 1000;
      const peaks = sampler.stop();
      if (render.status !== "done") throw new Error(`render ${render.status}:\n${render.lines?.join("\n")}\n${log}`);
      const done = render.lines?.find((l) => l.includes("done: "));
      printPeaks(`render (1920x1080, 30 fps, 180 frames, ${values.quality}): ${wall.toFixed(1)} s through the API; ${done ?? ""}`, peaks, 180, peakRssKb(node.pid!));

      sampler = sampleNode(node.pid!, join(tmp, "studio-node"));
      const snap = await call("POST", "/api/projects/footprint/snapshot", JSON.stringify({}));
      printPeaks(`snapshot (the browser-job loop): ${snap.status}`, sampler.stop(), 0, peakRssKb(node.pid!));
      console.log(`  load average after: ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);

      node.kill("SIGTERM");
      await new Promise((r) => node!.once("exit", r));
    }
  } finally {
    if (node && node.exitCode === null) node.kill("SIGKILL");
    await studio?.stop();
    await rm(work, { recursive: true, force: true });
    await rm(project, { recursive: true, force: true });
  }
}
