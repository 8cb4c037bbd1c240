// Benchmark (not a test): p50/p99 of GET /api/projects, a file GET and a file PUT (which also checks and moves the
// storage quota's count) under 50 concurrent connections against local `wrangler dev`, each as a ratio to a bare
// route (GET /api/ping) of the same Worker, runs alternated.
//   node bench/api-bench.ts [--requests 2000] [--rounds 3]
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDashboard } from "../scripts/lib/dashboard.ts";
import { startStudio } from "../scripts/lib/local-studio.ts";
import { measure, ms, type Stats } from "./lib/measure.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const REQUESTS = arg("requests", 2000);
const ROUNDS = arg("rounds", 3);
const CONCURRENCY = 50;
const PROJECTS = 20;

// wrangler dev serves the dashboard as its assets and will not start without the build.
await buildDashboard();
const studio = await startStudio({ port: 18_700, dataDir: await mkdtemp(join(tmpdir(), "studio-bench-")), renderNode: false });
try {
  const login = await fetch(`${studio.url}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"bench"}' });
  const { token } = (await login.json()) as { token: string };
  const auth = { Authorization: `Bearer ${token}` };
  for (let i = 0; i < PROJECTS; i++) {
    await fetch(`${studio.url}/api/projects`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ name: `Bench ${i}` }) });
  }
  const asset = new Uint8Array(64 * 1024).map((_, i) => i % 256);
  await fetch(`${studio.url}/api/projects/bench-0/files/assets/sample.bin`, { method: "PUT", headers: auth, body: asset });
  const small = asset.slice(0, 4096);
  let written = 0;

  const routes: Record<string, () => Promise<Response>> = {
    "bare GET /api/ping": () => fetch(`${studio.url}/api/ping`),
    [`GET /api/projects (${PROJECTS} projects)`]: () => fetch(`${studio.url}/api/projects`, { headers: auth }),
    "GET file (64 KiB)": () => fetch(`${studio.url}/api/projects/bench-0/files/assets/sample.bin`, { headers: auth }),
    // 100 paths in turn: new files at first, then overwrites, as an agent writing a project does.
    "PUT file (4 KiB)": () => fetch(`${studio.url}/api/projects/bench-1/files/assets/w${written++ % 100}.bin`, { method: "PUT", headers: auth, body: small }),
  };
  // Warm up every route once, then alternate them so drift on a shared machine hits all alike.
  for (const run of Object.values(routes)) await measure(100, 10, run);
  const results = new Map<string, Stats[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(routes)) {
      results.set(name, [...(results.get(name) ?? []), await measure(REQUESTS, CONCURRENCY, run)]);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const summary = [...results].map(([name, runs]) => ({
    name,
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    rps: median(runs.map((r) => r.rps)),
  }));
  const bare = summary[0]!;
  console.log(`\n${REQUESTS} requests × ${ROUNDS} rounds per route, ${CONCURRENCY} concurrent connections, wrangler dev on ${studio.url}\n`);
  console.log("route".padEnd(34) + "p50".padStart(10) + "p99".padStart(10) + "req/s".padStart(9) + "p50 ratio".padStart(11) + "p99 ratio".padStart(11));
  for (const row of summary) {
    console.log(
      row.name.padEnd(34) + ms(row.p50).padStart(10) + ms(row.p99).padStart(10) + row.rps.toFixed(0).padStart(9) +
        `${(row.p50 / bare.p50).toFixed(2)}x`.padStart(11) + `${(row.p99 / bare.p99).toFixed(2)}x`.padStart(11),
    );
  }
} finally {
  await studio.stop();
}
