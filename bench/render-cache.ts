// Benchmark (not a test): the render cache (issue 35, point 1) through the API on a local studio with its render
// node: a full render of a composition (POST .../render?wait=1 with force: true, from the POST to the done answer:
// queue, claim, project download, capture, encode, upload) against the same render answered from the cache (POST
// .../render, answered done: the copy), each the median of --runs. The studio runs behind the traced D1 binding of
// bench/d1-trace/ (no delay added), so the cached answer's round trips to D1's primary are printed too.
//   node bench/render-cache.ts [--runs 5] [--duration 20]
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDashboard } from "../scripts/lib/dashboard.ts";
import { startStudio } from "../scripts/lib/local-studio.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg("runs", 5);
const DURATION = arg("duration", 20);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await buildDashboard();
const studio = await startStudio({
  port: 18_850,
  dataDir: await mkdtemp(join(tmpdir(), "studio-cache-bench-")),
  entry: "bench/d1-trace/worker.ts",
  vars: { TRACE_PRIMARY_MS: "0", TRACE_REPLICA_MS: "0" },
});

try {
  const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"cache-bench"}' });
  const { token } = (await login.json()) as { token: string };
  const post = (path: string, body: unknown) =>
    fetch(`${studio.url}${path}`, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  // The starter composition: text and shapes that move all the way through.
  const created = await post("/api/projects", { name: "Cache Bench", duration: DURATION });
  if (!created.ok) throw new Error(`create: ${created.status} ${await created.text()}`);
  const options = { quality: "draft" };
  // A full render is timed to its end (wait=1); a cached one answers done at once without it (with it, the webhook
  // lookup the room queues after its answer would overlap the traced request and count as its trip).
  const timed = async (body: unknown, wait = true) => {
    const started = performance.now();
    const res = await post(`/api/projects/cache-bench/render${wait ? "?wait=1" : ""}`, body);
    const state = (await res.json()) as { status: string; reusedFrom?: string; size: number | null; lines?: string[] };
    const ms = performance.now() - started;
    if (state.status !== "done") throw new Error(`render ${state.status}: ${(state.lines ?? []).slice(-5).join("\n")}`);
    return { ms, state, primaryTrips: Number(res.headers.get("X-D1-Primary-Trips")) };
  };
  await timed({ ...options, force: true }); // warms the node's browser and the routes
  const full: number[] = [];
  const cached: number[] = [];
  const trips: number[] = [];
  let size = 0;
  for (let i = 0; i < RUNS; i++) {
    const rendered = await timed({ ...options, force: true });
    if (rendered.state.reusedFrom) throw new Error("a forced render was reused");
    full.push(rendered.ms);
    size = rendered.state.size ?? 0;
    const reused = await timed(options, false);
    if (!reused.state.reusedFrom) throw new Error("the same render again was not reused");
    cached.push(reused.ms);
    trips.push(reused.primaryTrips);
  }
  const fullMs = median(full);
  const cachedMs = median(cached);
  console.log(`starter composition, ${DURATION} s at 1920x1080, draft mp4 (${(size / 1024).toFixed(0)} KiB); median of ${RUNS} each`);
  console.log(`| render | median | runs (ms) |`);
  console.log(`| --- | --- | --- |`);
  console.log(`| full (force: true) | ${(fullMs / 1000).toFixed(2)} s | ${full.map((m) => m.toFixed(0)).join(", ")} |`);
  console.log(`| cached (reusedFrom) | ${cachedMs.toFixed(0)} ms | ${cached.map((m) => m.toFixed(0)).join(", ")} |`);
  console.log(`cached / full: ${(cachedMs / fullMs).toFixed(4)}; sequential D1 primary trips of the cached answer: ${trips.join(", ")}`);
} finally {
  await studio.stop();
}
