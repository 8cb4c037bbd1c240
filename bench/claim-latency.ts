// Benchmark (not a test): claim latency, from a render's POST to the moment a waiting node's claim answers with it,
// against local `wrangler dev`. A played node (plain HTTP, no browser) long-polls POST /api/node/jobs/claim as the
// render node's loop does (told to claim again, it claims again at once) and fails each job at once; the driver
// queues renders at random moments of the node's poll.
//   node bench/claim-latency.ts [--renders 30] [--base <git ref>]
// --base also measures the Worker of that commit (exported with `git archive` into the temp folder, outside this
// checkout so that no test runner finds its test files; node_modules linked), this checkout's first, and prints
// after / before. The played node is the same for both: it follows
// "claim again" and needs nothing of it from a Worker that never says it.
// Figures: bench/README.md ("Claim latency"). Earlier, 2026-11-23 on the shared 2-core machine, 30 renders each:
//   before issue 12 (b4e2e3a, D1 polled every 250 ms): median 225 ms, p90 298 ms; the claim came 43 ms (p90 175,
//     max 207) after the POST's answer
//   after (JobBoard long poll): median 192 ms, p90 284 ms; the claim came 0 ms (max 0) after the POST's answer
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..");
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const RENDERS = Number(arg("renders") ?? 30);
const BASE = arg("base");

interface Figures {
  /** POST .../render sent → the waiting node's claim answered with the job. */
  latency: number[];
  /** The POST itself. */
  posts: number[];
  /** Claim answered minus POST answered: the node's own part. */
  afterPost: number[];
  /** Claims answered "claim again" on the way to a job. */
  claimAgains: number;
}

/** A checkout of `ref` beside this one (git archive, node_modules linked), made once. */
async function checkoutOf(ref: string): Promise<string> {
  const commit = execFileSync("git", ["rev-parse", "--short", ref], { cwd: ROOT, encoding: "utf8" }).trim();
  const dir = join(tmpdir(), `studio-claim-latency-${commit}`);
  if (existsSync(join(dir, "package.json"))) return dir;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  execFileSync("sh", ["-c", `git archive ${commit} | tar -x -C '${dir}'`], { cwd: ROOT });
  await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

/** The claim latency of the studio in checkout `root`, `RENDERS` renders. */
async function measure(root: string): Promise<Figures> {
  const { buildDashboard } = (await import(pathToFileURL(join(root, "scripts/lib/dashboard.ts")).href)) as typeof import("../scripts/lib/dashboard.ts");
  const { startStudio } = (await import(pathToFileURL(join(root, "scripts/lib/local-studio.ts")).href)) as typeof import("../scripts/lib/local-studio.ts");
  await buildDashboard();
  const studio = await startStudio({ port: 18_800 + Math.floor(Math.random() * 100), dataDir: await mkdtemp(join(tmpdir(), "studio-claim-bench-")), renderNode: false });
  const node = { Authorization: `Bearer ${studio.nodeKey}`, "Content-Type": "application/json" };
  const figures: Figures = { latency: [], posts: [], afterPost: [], claimAgains: 0 };
  try {
    const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"bench"}' });
    const { token } = (await login.json()) as { token: string };
    const user = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
    await fetch(`${studio.url}/api/projects`, { method: "POST", headers: user, body: JSON.stringify({ name: "Claim Bench" }) });

    const claimedAt = new Map<string, number>();
    let stop = false;
    // The played node: one long poll at a time, as render-node/src/job/run-job-loop.ts claims; each job failed at
    // once so the project can render again.
    const nodeLoop = (async () => {
      while (!stop) {
        const res = await fetch(`${studio.url}/api/node/jobs/claim?wait=20`, { method: "POST", headers: node, body: '{"kinds":["render"],"nodeId":"bench"}' });
        if (res.status !== 200) continue;
        const { job } = (await res.json()) as { job: { id: string } | null };
        if (!job) {
          figures.claimAgains++;
          continue;
        }
        claimedAt.set(job.id, performance.now());
        await fetch(`${studio.url}/api/node/jobs/${job.id}/complete`, { method: "POST", headers: node, body: '{"ok":false,"error":"bench"}' });
      }
    })();

    for (let i = 0; i < RENDERS; i++) {
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 700)); // lands anywhere in the node's poll
      const sent = performance.now();
      const res = await fetch(`${studio.url}/api/projects/claim-bench/render`, { method: "POST", headers: user, body: '{"quality":"draft"}' });
      const { id } = (await res.json()) as { id: string };
      figures.posts.push(performance.now() - sent);
      for (let t = 0; t < 500 && !claimedAt.has(id); t++) await new Promise((r) => setTimeout(r, 10));
      const at = claimedAt.get(id);
      if (at !== undefined) {
        figures.latency.push(at - sent);
        figures.afterPost.push(at - sent - figures.posts.at(-1)!);
      }
      // Wait for the render to end (failed by the node) before the next one.
      for (let t = 0; t < 200; t++) {
        const state = (await (await fetch(`${studio.url}/api/projects/claim-bench/render`, { headers: user })).json()) as { status: string };
        if (state.status !== "queued" && state.status !== "rendering") break;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    stop = true;
    await Promise.race([nodeLoop, new Promise((r) => setTimeout(r, 100))]);
  } finally {
    await studio.stop();
  }
  return figures;
}

const quantile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
};
const summary = (values: number[]) =>
  `median ${quantile(values, 0.5).toFixed(0)} ms, p90 ${quantile(values, 0.9).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms, min ${Math.min(...values).toFixed(0)} ms`;

function report(label: string, f: Figures): void {
  console.log(`${label}: claim latency (POST .../render sent → waiting node's claim answered with it), ${f.latency.length} of ${RENDERS} renders: ${summary(f.latency)}`);
  console.log(`  for scale, the POST itself (queued → answered): ${summary(f.posts)}`);
  console.log(`  claim answered minus POST answered (the node's own part): ${summary(f.afterPost)}`);
  console.log(`  "claim again" answers on the way: ${f.claimAgains}`);
}

const after = await measure(ROOT);
report("this checkout", after);
if (BASE) {
  const before = await measure(await checkoutOf(BASE));
  report(`base ${BASE}`, before);
  const ratio = (p: number, pick: (f: Figures) => number[]) => (quantile(pick(after), p) / quantile(pick(before), p)).toFixed(2);
  console.log(`after / before: claim latency median ${ratio(0.5, (f) => f.latency)}, p90 ${ratio(0.9, (f) => f.latency)}; the node's own part median ${(quantile(after.afterPost, 0.5) - quantile(before.afterPost, 0.5)).toFixed(0)} ms more`);
}
process.exit(0);
