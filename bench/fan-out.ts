// Benchmark (not a test): one render's events fanned out to many subscribers (issue 35, point 4), against local
// `wrangler dev`. N clients follow GET /api/projects/:slug/render/events (Server-Sent Events, the way the dashboard
// and agents follow a render); a played node (plain HTTP, no browser) posts the render's progress M times; for each
// posted line the lag of a subscriber is when it read the line minus when the first subscriber read it. Prints the
// lag's p50, p99 and max over every (line, subscriber), and the lines any subscriber missed (goal: p99 under
// 100 ms at 500 subscribers, none missed).
//   node bench/fan-out.ts [--subscribers 500] [--events 20] [--gap 250]
import { mkdtemp } from "node:fs/promises";
import { tmpdir, loadavg } from "node:os";
import { join } from "node:path";
import { Agent, get, type ClientRequest } from "node:http";
import { buildDashboard } from "../scripts/lib/dashboard.ts";
import { startStudio } from "../scripts/lib/local-studio.ts";

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SUBSCRIBERS = arg("subscribers", 500);
const EVENTS = arg("events", 20);
const GAP_MS = arg("gap", 250);

const quantile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
};

/** One subscriber: when it read each "bench <k>" line. Resolves once the stream has answered. */
function subscribe(url: string, token: string, agent: Agent, seen: Map<number, number>, streams: ClientRequest[]): Promise<void> {
  return new Promise((ready, failed) => {
    const req = get(url, { agent, headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" } }, (res) => {
      if (res.statusCode !== 200) return failed(new Error(`events: ${res.statusCode}`));
      ready();
      res.setEncoding("utf8");
      let buffered = "";
      res.on("data", (chunk: string) => {
        const now = performance.now();
        buffered += chunk;
        let cut: number;
        while ((cut = buffered.indexOf("\n\n")) >= 0) {
          const k = /"line":"bench (\d+)"/.exec(buffered.slice(0, cut));
          buffered = buffered.slice(cut + 2);
          if (k) seen.set(Number(k[1]), now);
        }
      });
    });
    req.on("error", (error) => (req.destroyed ? undefined : failed(error)));
    streams.push(req);
  });
}

await buildDashboard();
const studio = await startStudio({ port: 18_900 + Math.floor(Math.random() * 90), dataDir: await mkdtemp(join(tmpdir(), "studio-fan-out-")), renderNode: false });
// One socket per subscriber, as separate clients would have.
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
const streams: ClientRequest[] = [];
try {
  const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"fan-out"}' });
  const { token } = (await login.json()) as { token: string };
  const user = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const node = { Authorization: `Bearer ${studio.nodeKey}`, "Content-Type": "application/json" };
  await fetch(`${studio.url}/api/projects`, { method: "POST", headers: user, body: JSON.stringify({ name: "Fan Out" }) });
  const started = (await (await fetch(`${studio.url}/api/projects/fan-out/render`, { method: "POST", headers: user, body: '{"quality":"draft"}' })).json()) as { id: string };
  const claim = (await (await fetch(`${studio.url}/api/node/jobs/claim?wait=20`, { method: "POST", headers: node, body: '{"kinds":["render"],"nodeId":"fan-out"}' })).json()) as { job: { id: string } | null };
  if (claim.job?.id !== started.id) throw new Error(`the played node claimed ${JSON.stringify(claim.job)}, not ${started.id}`);

  const seen = Array.from({ length: SUBSCRIBERS }, () => new Map<number, number>());
  const opening = performance.now();
  await Promise.all(seen.map((s) => subscribe(`${studio.url}/api/projects/fan-out/render/events`, token, agent, s, streams)));
  console.log(`${SUBSCRIBERS} subscribers open in ${((performance.now() - opening) / 1000).toFixed(1)} s`);
  await new Promise((r) => setTimeout(r, 1000));

  const loads = [loadavg()[0]!.toFixed(1)];
  for (let k = 0; k < EVENTS; k++) {
    const res = await fetch(`${studio.url}/api/node/jobs/${started.id}/progress`, {
      method: "POST", headers: node,
      body: JSON.stringify({ lines: [`bench ${k}`], progress: { frame: k + 1, total: EVENTS, fps: null, stage: "capturing", etaSeconds: null } }),
    });
    if (!res.ok) throw new Error(`progress ${k}: ${res.status}`);
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  await new Promise((r) => setTimeout(r, 2000));
  loads.push(loadavg()[0]!.toFixed(1));

  const lags: number[] = [];
  const spreads: number[] = [];
  let missed = 0;
  for (let k = 0; k < EVENTS; k++) {
    const times = seen.flatMap((s) => (s.has(k) ? [s.get(k)!] : []));
    missed += SUBSCRIBERS - times.length;
    if (times.length === 0) continue;
    const first = Math.min(...times);
    for (const t of times) lags.push(t - first);
    spreads.push(Math.max(...times) - first);
  }
  console.log(`${EVENTS} lines to ${SUBSCRIBERS} subscribers (load ${loads.join(" to ")}): lag behind the first p50 ${quantile(lags, 0.5).toFixed(0)} ms, p99 ${quantile(lags, 0.99).toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms; last subscriber per line median ${quantile(spreads, 0.5).toFixed(0)} ms; missed ${missed}`);
  await fetch(`${studio.url}/api/node/jobs/${started.id}/complete`, { method: "POST", headers: node, body: '{"ok":false,"error":"bench"}' });
} finally {
  for (const req of streams) req.destroy();
  agent.destroy();
  await studio.stop();
}
process.exit(0);
