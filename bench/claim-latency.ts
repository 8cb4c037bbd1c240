// Benchmark (not a test): claim latency, from a render's POST to the moment a waiting node's claim answers with it,
// against local `wrangler dev`. A played node (plain HTTP, no browser) long-polls POST /api/node/jobs/claim and
// fails each job at once; the driver queues renders at random moments of the node's poll.
//   node bench/claim-latency.ts [--renders 30]
// Run it from an older checkout (same script) to compare: before issue 12 a claim polled D1 every 250 ms.
// Measured 2026-11-23 on the shared 2-core machine, 30 renders each (claim answered after the POST was sent):
//   before (b4e2e3a, D1 polled every 250 ms): median 225 ms, p90 298 ms; the claim came 43 ms (p90 175, max 207)
//     after the POST's answer
//   after (JobBoard long poll):              median 192 ms, p90 284 ms; the claim came 0 ms (max 0) after the
//     POST's answer: the node's wait is gone, what is left is the POST's own work (the room's start, D1 writes)
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDashboard } from "../scripts/lib/dashboard.ts";
import { startStudio } from "../scripts/lib/local-studio.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const RENDERS = arg("renders", 30);

await buildDashboard();
const studio = await startStudio({ port: 18_800 + Math.floor(Math.random() * 100), dataDir: await mkdtemp(join(tmpdir(), "studio-claim-bench-")), renderNode: false });
const node = { Authorization: `Bearer ${studio.nodeKey}`, "Content-Type": "application/json" };
try {
  const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"bench"}' });
  const { token } = (await login.json()) as { token: string };
  const user = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  await fetch(`${studio.url}/api/projects`, { method: "POST", headers: user, body: JSON.stringify({ name: "Claim Bench" }) });

  const claimedAt = new Map<string, number>();
  let stop = false;
  // The played node: one long poll at a time, each job failed at once so the project can render again.
  const nodeLoop = (async () => {
    while (!stop) {
      const res = await fetch(`${studio.url}/api/node/jobs/claim?wait=20`, { method: "POST", headers: node, body: '{"kinds":["render"],"nodeId":"bench"}' });
      if (res.status !== 200) continue;
      const { job } = (await res.json()) as { job: { id: string } };
      claimedAt.set(job.id, performance.now());
      await fetch(`${studio.url}/api/node/jobs/${job.id}/complete`, { method: "POST", headers: node, body: '{"ok":false,"error":"bench"}' });
    }
  })();

  const latencies: number[] = [];
  const posts: number[] = [];
  const afterPost: number[] = [];
  for (let i = 0; i < RENDERS; i++) {
    await new Promise((r) => setTimeout(r, 300 + Math.random() * 700)); // lands anywhere in the node's poll
    const sent = performance.now();
    const res = await fetch(`${studio.url}/api/projects/claim-bench/render`, { method: "POST", headers: user, body: '{"quality":"draft"}' });
    const { id } = (await res.json()) as { id: string };
    posts.push(performance.now() - sent);
    for (let t = 0; t < 200 && !claimedAt.has(id); t++) await new Promise((r) => setTimeout(r, 10));
    const at = claimedAt.get(id);
    if (at !== undefined) {
      latencies.push(at - sent);
      afterPost.push(at - sent - posts.at(-1)!);
    }
    // Wait for the render to end (failed by the node) before the next one.
    for (let t = 0; t < 200; t++) {
      const state = (await (await fetch(`${studio.url}/api/projects/claim-bench/render`, { headers: user })).json()) as { status: string };
      if (state.status !== "queued" && state.status !== "rendering") break;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  stop = true;
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
    return `median ${q(0.5).toFixed(0)} ms, p90 ${q(0.9).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms, min ${sorted[0]!.toFixed(0)} ms`;
  };
  console.log(`claim latency (POST .../render sent → waiting node's claim answered), ${latencies.length} renders: ${summary(latencies)}`);
  console.log(`  for scale, the POST itself (queued → answered): ${summary(posts)}`);
  console.log(`  claim answered minus POST answered (the node's own wait): ${summary(afterPost)}`);
  await Promise.race([nodeLoop, new Promise((r) => setTimeout(r, 100))]);
} finally {
  await studio.stop();
}
process.exit(0);
