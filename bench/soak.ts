// Soak (not a test): many renders through render nodes run as production runs them (STUDIO_NODES=containers: the
// Worker's container class starts, stops and replaces render-node processes through the local container host),
// with nodes killed (SIGKILL) at random and the Worker restarted once midway. It reports what a user would notice:
// lost (the API no longer knows the work), stuck (not ended by the deadline), failures with their reasons, and
// p50/p95 of queue time (POST to the first time it is seen rendering) and total time (POST to its end).
//   node bench/soak.ts [--items 200] [--max 3] [--parallel 6] [--kill-every 30] [--seed 1] [--stuck-after 900]
// Items, drawn at random (seeded): short renders (1 s), split renders (6 s, split when nodes are free), batches of
// two rows (each row an item), snapshots, and cancels (a render cancelled a moment after its POST; it must end
// cancelled). --kill-every is the mean seconds between SIGKILLs of a random running instance. Figures: bench/README.md.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { starterComposition } from "../core/composition/starter.ts";
import { buildDashboard } from "../scripts/lib/dashboard.ts";
import { startStudio } from "../scripts/lib/local-studio.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const ITEMS = arg("items", 200);
const MAX = arg("max", 3);
const PARALLEL = arg("parallel", 6);
const KILL_EVERY_S = arg("kill-every", 30);
const STUCK_AFTER_S = arg("stuck-after", 900);
let seed = arg("seed", 1);
/** mulberry32: a seeded draw, so a run can be repeated. */
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;

type Kind = "short" | "split" | "batch-row" | "snapshot" | "cancel";
interface Outcome {
  kind: Kind;
  submitted: number;
  runningAt: number | null;
  endedAt: number | null;
  status: string;
  error: string | null;
}
const KINDS: readonly Kind[] = ["short", "short", "split", "batch-row", "snapshot", "cancel"];

await buildDashboard();
const studio = await startStudio({
  port: 33_000 + Math.floor(Math.random() * 1000),
  dataDir: await mkdtemp(join(tmpdir(), "studio-soak-")),
  containers: true,
  vars: {
    CONTAINER_MIN_INSTANCES: "0",
    CONTAINER_MAX_INSTANCES: String(MAX),
    CONTAINER_SLEEP_AFTER: "10s",
    CONTAINER_NODE_CONCURRENCY: "1",
    JOB_LEASE_MS: "5000",
    // This machine's nodes (one browser each on the shared 2 cores), so a 6 s render is split when nodes are free.
    NODE_FRAMES_PER_SECOND: "2",
    // One user drives every slot: the per-user caps must not be what the soak measures.
    MAX_SNAPSHOTS_PER_USER: String(PARALLEL),
    MAX_RENDERS_PER_USER: String(PARALLEL * 2),
  },
  log: (line) => {
    if (process.env.SOAK_LOG) console.log(line);
  },
});
const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"soak"}' });
const { token } = (await login.json()) as { token: string };
const call = (method: string, path: string, body?: unknown) =>
  fetch(`${studio.url}${path}`, { method, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// One project per client slot: a project holds one render (or batch) at a time.
const projects: string[] = [];
for (let i = 0; i < PARALLEL; i++) {
  for (const [name, duration] of [[`Short ${i}`, 1], [`Split ${i}`, 6]] as const) {
    const res = await call("POST", "/api/projects", { name, html: starterComposition({ compositionId: `c${i}`, title: name, duration }) });
    if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${await res.text()}`);
  }
  projects.push(String(i));
}

const outcomes: Outcome[] = [];
const ended = (s: string) => s === "done" || s === "failed" || s === "cancelled";

/** Follows a render by id until it ends, is lost, or is stuck. */
async function follow(o: Outcome, id: string): Promise<void> {
  for (;;) {
    const res = await call("GET", `/api/renders/${id}`).catch((error: unknown) => ({ status: 0, error }) as const);
    if ("error" in res) {
      await sleep(1000); // the Worker restarting: asked again
      continue;
    }
    if (res.status === 404) {
      o.status = "lost";
      return;
    }
    if (res.status === 200) {
      const r = (await res.json()) as { status: string; error: string | null };
      if (r.status === "rendering" && o.runningAt === null) o.runningAt = Date.now();
      if (ended(r.status)) {
        o.status = r.status;
        o.error = r.error;
        o.endedAt = Date.now();
        o.runningAt ??= o.endedAt;
        return;
      }
    }
    if (Date.now() - o.submitted > STUCK_AFTER_S * 1000) {
      o.status = "stuck";
      return;
    }
    await sleep(500);
  }
}

/** POSTs until the Worker answers (it may be restarting). */
async function post(path: string, body?: unknown): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call("POST", path, body);
    } catch (error) {
      if (attempt > 60) throw error;
      await sleep(1000);
    }
  }
}

async function runItem(slot: string, kind: Kind): Promise<Outcome[]> {
  const o: Outcome = { kind, submitted: Date.now(), runningAt: null, endedAt: null, status: "submitted", error: null };
  const slug = kind === "split" ? `split-${slot}` : `short-${slot}`;
  if (kind === "snapshot") {
    const res = await post(`/api/projects/${slug}/snapshot`, { at: [0.5], end: false });
    o.endedAt = Date.now();
    o.status = res.status === 200 ? "done" : "failed";
    if (res.status !== 200) o.error = `${res.status} ${(await res.text()).slice(0, 200)}`;
    return [o];
  }
  if (kind === "batch-row") {
    const res = await post(`/api/projects/${slug}/batch`, { rows: [{ name: "a" }, { name: "b" }], format: "mp4", quality: "draft" });
    if (res.status !== 202) return [{ ...o, status: "failed", error: `batch POST ${res.status} ${(await res.text()).slice(0, 200)}`, endedAt: Date.now() }];
    const rows: Outcome[] = [o, { ...o }];
    for (;;) {
      const got = await call("GET", `/api/projects/${slug}/batch`).catch(() => null);
      if (got?.status === 200) {
        const b = (await got.json()) as { status: string; rows: { status: string; error: string | null }[] };
        b.rows.forEach((row, i) => {
          const r = rows[i]!;
          if (row.status === "rendering" && r.runningAt === null) r.runningAt = Date.now();
          if (ended(row.status) && r.endedAt === null) Object.assign(r, { status: row.status, error: row.error, endedAt: Date.now(), runningAt: r.runningAt ?? Date.now() });
        });
        if (ended(b.status)) {
          // A row the batch never reached (a failure ended it early) counts as failed, with the batch's reason.
          for (const r of rows) if (r.endedAt === null) Object.assign(r, { status: "failed", error: `batch ended ${b.status} before this row`, endedAt: Date.now() });
          return rows;
        }
      }
      if (Date.now() - o.submitted > STUCK_AFTER_S * 1000) return rows.map((r) => (r.endedAt === null ? { ...r, status: "stuck" } : r));
      await sleep(500);
    }
  }
  const res = await post(`/api/projects/${slug}/render`, { format: "mp4", quality: "draft" });
  if (res.status !== 202) return [{ ...o, status: "failed", error: `render POST ${res.status} ${(await res.text()).slice(0, 200)}`, endedAt: Date.now() }];
  const { id } = (await res.json()) as { id: string };
  if (kind === "cancel") {
    await sleep(500 + random() * 4000);
    await call("DELETE", `/api/projects/${slug}/render`).catch((error: unknown) => log(`cancel of ${id} not sent: ${String(error)}`));
  }
  await follow(o, id);
  return [o];
}

/**
 * A stuck item's render or batch still holds its project (one at a time per project): cancelled, so the slot's next
 * items are not refused for it (409, or 200 with the render in progress) and counted as failures of their own.
 */
async function freeSlot(slot: string): Promise<void> {
  for (const slug of [`short-${slot}`, `split-${slot}`]) {
    for (const what of ["batch", "render"]) {
      const res = await call("DELETE", `/api/projects/${slug}/${what}`).catch((error: unknown) => error);
      if (!(res instanceof Response)) log(`cancelling the stuck ${what} of ${slug} failed: ${String(res)}`);
    }
  }
}

// The chaos: SIGKILL a random running instance now and then; restart the Worker once, midway.
let stopChaos = false;
let kills = 0;
const chaos = (async () => {
  while (!stopChaos) {
    await sleep(KILL_EVERY_S * 1000 * (0.5 + random()));
    const live = studio.containers!.instances().filter((i) => i.running);
    if (stopChaos || live.length === 0) continue;
    const victim = pick(live);
    if (studio.containers!.kill(victim.name, "SIGKILL")) {
      kills++;
      log(`SIGKILL ${victim.name} (pid ${victim.pid})`);
    }
  }
})();

const began = Date.now();
let submitted = 0;
let restarted = false;
const slots = projects.map(async (slot) => {
  while (submitted < ITEMS) {
    const kind = pick(KINDS);
    submitted += kind === "batch-row" ? 2 : 1;
    if (!restarted && submitted >= ITEMS / 2) {
      restarted = true;
      log("restarting the Worker");
      await studio.restartWorker();
      log("Worker back");
    }
    const got = await runItem(slot, kind);
    outcomes.push(...got);
    if (got.some((o) => o.status === "stuck")) await freeSlot(slot);
    for (const o of got) if (o.status !== "done" && !(o.kind === "cancel" && o.status === "cancelled")) log(`${o.kind} on slot ${slot}: ${o.status}${o.error ? `: ${o.error}` : ""}`);
    if (outcomes.length % 10 < got.length) log(`${outcomes.length} items ended (${outcomes.filter((x) => x.status === "done").length} done)`);
  }
});
await Promise.all(slots);
stopChaos = true;
await chaos;

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
};
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const renders = outcomes.filter((o) => o.kind !== "snapshot" && o.endedAt !== null && o.runningAt !== null);
const queue = renders.map((o) => o.runningAt! - o.submitted);
const total = outcomes.filter((o) => o.endedAt !== null).map((o) => o.endedAt! - o.submitted);
const wrongCancel = outcomes.filter((o) => o.kind === "cancel" && o.status !== "cancelled" && o.status !== "done");
const failures = outcomes.filter((o) => (o.status === "failed" || o.status === "cancelled") && o.kind !== "cancel");
const reasons = new Map<string, number>();
for (const f of [...failures, ...wrongCancel]) reasons.set(`${f.kind}: ${f.status}: ${f.error ?? "(no reason given)"}`, (reasons.get(`${f.kind}: ${f.status}: ${f.error ?? "(no reason given)"}`) ?? 0) + 1);
const byKind = Object.fromEntries(["short", "split", "batch-row", "snapshot", "cancel"].map((k) => [k, outcomes.filter((o) => o.kind === k).length]));
console.log(`\nsoak: ${outcomes.length} items in ${secs(Date.now() - began)} (${JSON.stringify(byKind)}), max ${MAX} instances, ${kills} SIGKILLs, 1 Worker restart`);
console.log(`  lost ${outcomes.filter((o) => o.status === "lost").length}, stuck ${outcomes.filter((o) => o.status === "stuck").length}`);
console.log(`  done ${outcomes.filter((o) => o.status === "done").length}; cancels ended cancelled ${outcomes.filter((o) => o.kind === "cancel" && o.status === "cancelled").length} (done before the cancel came: ${outcomes.filter((o) => o.kind === "cancel" && o.status === "done").length})`);
console.log(`  failures ${failures.length + wrongCancel.length}${[...reasons].map(([r, n]) => `\n    ${n} × ${r}`).join("")}`);
console.log(`  queue time (renders, POST → first seen rendering): p50 ${secs(quantile(queue, 0.5))}, p95 ${secs(quantile(queue, 0.95))}`);
console.log(`  total time (POST → end): p50 ${secs(quantile(total, 0.5))}, p95 ${secs(quantile(total, 0.95))}`);
console.log(`  instances: ${JSON.stringify(studio.containers!.instances().map((i) => ({ name: i.name, starts: i.starts })))}`);
await studio.stop();
process.exit(0);
