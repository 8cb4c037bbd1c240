// Idea-board benchmark: loads 100,000 ideas into a local D1 (wrangler d1 execute --local --file, 150 rows per
// INSERT, stems computed by the same core/similarity code the Worker uses), starts `wrangler dev` on it (or uses
// BENCH_URL), then prints p50/p95 latency of POST /api/ideas/check and GET /api/ideas?sort=hot.
//
//   node_modules/.bin/node bench/ideas-bench.ts            (or: npx tsx bench/ideas-bench.ts)
//   BENCH_IDEAS=100000 BENCH_REQUESTS=300 BENCH_STATE=/tmp/studio-bench BENCH_URL=http://127.0.0.1:8787
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { indexStemsOf } from "../core/similarity/terms-of.ts";

const IDEAS = Number(process.env.BENCH_IDEAS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const STATE = process.env.BENCH_STATE ?? "/tmp/studio-ideas-bench";
const PORT = Number(process.env.BENCH_PORT ?? 8797);
// Run wrangler's script with this Node (24), not whatever `node` is first on PATH.
const WRANGLER_JS = join(import.meta.dirname, "..", "node_modules", "wrangler", "bin", "wrangler.js");
const run = (args: string[]) => spawnSync(process.execPath, [WRANGLER_JS, ...args], { env: quietEnv, encoding: "utf8", maxBuffer: 1 << 26 });
const quietEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true" };

// A deterministic generator of plausible idea titles: verb + adjective + feature + context, from small word lists.
const VERBS = ["Add", "Support", "Allow", "Generate", "Export", "Import", "Preview", "Animate", "Sync", "Schedule", "Share", "Render"];
const ADJECTIVES = ["automatic", "animated", "custom", "vertical", "bulk", "realtime", "collaborative", "branded", "looping", "slow-motion", "4k", "transparent", "reusable", "interactive", "localized"];
const FEATURES = ["captions", "lower thirds", "transitions", "thumbnails", "soundtracks", "voiceovers", "charts", "maps", "countdowns", "logos", "waveforms", "timelines", "templates", "watermarks", "subtitles", "particles", "gradients", "storyboards", "markers", "overlays"];
const CONTEXTS = ["for podcasts", "in the editor", "for TikTok", "from CSV files", "for product launches", "with webhooks", "in the dashboard", "for agents", "with keyboard shortcuts", "for teams", "from the API", "on mobile", "for tutorials", "with GSAP", "for livestreams"];

let seed = 42;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}
const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)] as T;

function ideaText(i: number) {
  const title = `${pick(VERBS)} ${pick(ADJECTIVES)} ${pick(FEATURES)} ${pick(CONTEXTS)} #${i}`;
  const body = `${title}. It would help ${pick(CONTEXTS).replace(/^\w+ /, "")} and make ${pick(FEATURES)} ${pick(ADJECTIVES)}.`;
  return { title, body };
}

/** D1 refuses statements over 100 KB; 150 rows of about 450 bytes stay well under. */
const ROWS_PER_INSERT = 150;
const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

function wrangler(args: string[]): void {
  const res = run(args);
  if (res.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed:\n${res.stdout}\n${res.stderr}`);
}

function countIdeas(): number {
  const res = run(["d1", "execute", "studio", "--local", "--persist-to", STATE, "--json", "--command", "SELECT count(*) AS n FROM ideas"]);
  if (res.status !== 0) return 0;
  const parsed = JSON.parse(res.stdout) as Array<{ results: Array<{ n: number }> }>;
  return parsed[0]?.results[0]?.n ?? 0;
}

function load(): void {
  mkdirSync(STATE, { recursive: true });
  wrangler(["d1", "migrations", "apply", "studio", "--local", "--persist-to", STATE]);
  const have = countIdeas();
  if (have >= IDEAS) {
    console.log(`local D1 already holds ${have} ideas`);
    return;
  }
  const started = performance.now();
  const now = Date.now();
  const lines: string[] = [];
  for (let start = have; start < IDEAS; start += ROWS_PER_INSERT) {
    const rows: string[] = [];
    for (let i = start; i < Math.min(IDEAS, start + ROWS_PER_INSERT); i++) {
      const { title, body } = ideaText(i);
      const createdAt = now - Math.floor(random() * 90 * 86_400_000);
      const votes = Math.floor(random() ** 3 * 200);
      const author = i % 5 === 0 ? `'bot:bench'` : `'user:bench'`;
      rows.push(
        `(${sqlString(title)},${sqlString(body)},'bench',${i % 5 === 0 ? "'bench bot'" : "'bench user'"},${author},${i % 5 === 0 ? 1 : 0},'open',${votes},${createdAt},${sqlString(indexStemsOf(title))},${sqlString(indexStemsOf(body))})`,
      );
    }
    lines.push(`INSERT INTO ideas (title, body, source, name, author, is_bot, status, votes, created_at, title_terms, body_terms) VALUES\n${rows.join(",\n")};`);
  }
  const file = join(STATE, "ideas-bench.sql");
  writeFileSync(file, lines.join("\n"));
  wrangler(["d1", "execute", "studio", "--local", "--persist-to", STATE, "--yes", "--file", file]);
  console.log(`loaded ${IDEAS - have} ideas in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function waitFor(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

interface Timing {
  label: string;
  p50: number;
  p95: number;
  max: number;
}

async function time(label: string, request: (i: number) => Promise<Response>): Promise<Timing> {
  for (let i = 0; i < 20; i++) await (await request(i)).arrayBuffer(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    const res = await request(i + 1000);
    await res.arrayBuffer();
    samples.push(performance.now() - t);
    if (!res.ok) throw new Error(`${label}: HTTP ${res.status}`);
  }
  samples.sort((a, b) => a - b);
  return { label, p50: percentile(samples, 50), p95: percentile(samples, 95), max: samples.at(-1) ?? 0 };
}

async function main(): Promise<void> {
  let base = process.env.BENCH_URL;
  let dev: ReturnType<typeof spawn> | null = null;
  if (!base) {
    load();
    mkdirSync(join(import.meta.dirname, "..", "dashboard", "dist"), { recursive: true });
    dev = spawn(process.execPath, [WRANGLER_JS, "dev", "--local", "--port", String(PORT), "--persist-to", STATE, "--var", "TOKEN_SECRET:bench-token-secret-0123456789", "--var", "DEV_LOGIN:true"], { env: quietEnv, stdio: "ignore", detached: true });
    base = `http://127.0.0.1:${PORT}`;
    await waitFor(`${base}/api/metrics`, 60_000);
  }
  try {
    const checkTitles = Array.from({ length: 50 }, (_, i) => ideaText(IDEAS + i).title.replace(/ #\d+$/, ""));
    const routes: Array<[string, (i: number) => Promise<Response>]> = [
      ["bare GET /api/ping (baseline)", () => fetch(`${base}/api/ping`)],
      ["POST /api/ideas/check", (i) =>
        fetch(`${base}/api/ideas/check`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ title: checkTitles[i % checkTitles.length], body: "" }),
        })],
      ["GET /api/ideas?sort=hot", (i) => fetch(`${base}/api/ideas?sort=hot&offset=${(i % 5) * 20}`)],
      ["GET /api/ideas?sort=new", () => fetch(`${base}/api/ideas?sort=new`)],
    ];
    // Alternate the routes over rounds so a busy machine slows all of them alike; report medians and the ratio
    // of each to the bare route of the same Worker.
    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    const results = new Map<string, Timing[]>();
    for (let round = 0; round < rounds; round++) {
      for (const [label, request] of routes) results.set(label, [...(results.get(label) ?? []), await time(label, request)]);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    const rows = [...results].map(([label, runs]) => ({ label, p50: median(runs.map((r) => r.p50)), p95: median(runs.map((r) => r.p95)) }));
    const bare = rows[0]!;
    console.log(`\n${REQUESTS} sequential requests × ${rounds} rounds per route, ${IDEAS} ideas, medians of the rounds`);
    for (const row of rows) {
      console.log(
        `${row.label.padEnd(32)} p50 ${row.p50.toFixed(1).padStart(6)} ms  p95 ${row.p95.toFixed(1).padStart(6)} ms` +
          `   (p50 ${(row.p50 / bare.p50).toFixed(1)}x, p95 ${(row.p95 / bare.p95).toFixed(1)}x the bare route)`,
      );
    }
  } finally {
    if (dev?.pid) process.kill(-dev.pid, "SIGTERM");
  }
}

await main();
