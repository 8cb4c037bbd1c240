// Benchmark (not a test): the storage ledger's reconciliation (worker/storage/storage-ledger.ts) for one user with
// 100,000 files, under `wrangler dev` (local R2 and Durable Objects; bench/ledger-bench/worker.ts adds the routes).
//   node bench/ledger-reconcile.ts [--files 100000] [--projects 50] [--drift 100]
// Prints: the R2 listing as one chain of pages per prefix (as the ledger listed before) and with the projects side by
// side (list-stored.ts); the ledger's first count (every row inserted, as before); a reconciliation with nothing
// drifted; and one after --drift files changed behind its back: wall time and the rows of the ledger's table written.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDashboard } from "../scripts/lib/dashboard.ts";
import { startStudio } from "../scripts/lib/local-studio.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const FILES = arg("files", 100_000);
const PROJECTS = arg("projects", 50);
const DRIFT = arg("drift", 100);
const SEED_BATCH = 500;

await buildDashboard();
const studio = await startStudio({ port: 18_760, dataDir: await mkdtemp(join(tmpdir(), "studio-ledger-bench-")), renderNode: false, entry: "bench/ledger-bench/worker.ts" });
const user = crypto.randomUUID();

async function call<T>(path: string, params: Record<string, number | string> = {}): Promise<T & { ms: number }> {
  const query = new URLSearchParams({ user, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
  // Seeding is idempotent (the same keys and bytes): a request wrangler dev dropped is sent again.
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${studio.url}/__bench/ledger/${path}?${query}`, { method: "POST" });
    if (res.ok) return (await res.json()) as T & { ms: number };
    const text = await res.text();
    if (path !== "seed" || res.status !== 503 || attempt === 3) throw new Error(`${path}: ${res.status} ${text}`);
  }
}

type Reconciled = { drift: { bytes: number; objects: number }; after: { objects: number }; rowsWritten: number };
const row = (what: string, ms: number, detail: string) => console.log(`| ${what} | ${(ms / 1000).toFixed(2)} s | ${detail} |`);

try {
  const seeded = performance.now();
  for (let from = 0; from < FILES; from += SEED_BATCH) {
    await call("seed", { from, to: Math.min(FILES, from + SEED_BATCH), projects: PROJECTS });
    if ((from + SEED_BATCH) % 10_000 === 0) console.error(`seeded ${from + SEED_BATCH} files`);
  }
  console.log(`${FILES} files of 100 bytes in ${PROJECTS} projects and the renders, put in ${((performance.now() - seeded) / 1000).toFixed(0)} s\n`);
  console.log("| step | wall time | what |\n| --- | --- | --- |");
  const chains = await call<{ objects: number }>("list-chains");
  row("R2 listing, one chain of pages per prefix (before)", chains.ms, `${chains.objects} objects`);
  const sideBySide = await call<{ objects: number }>("list-stored");
  row("R2 listing, projects side by side (list-stored.ts)", sideBySide.ms, `${sideBySide.objects} objects`);
  const first = await call<Reconciled>("reconcile");
  row("first count (the ledger's first use)", first.ms, `${first.after.objects} objects, ${first.rowsWritten} rows written`);
  const inStep = await call<Reconciled>("reconcile");
  row("reconciliation, nothing drifted", inStep.ms, `drift ${inStep.drift.bytes} bytes, ${inStep.rowsWritten} rows written (before: every row deleted and inserted again)`);
  await call("drift", { n: DRIFT, total: FILES, projects: PROJECTS });
  const drifted = await call<Reconciled>("reconcile");
  row(`reconciliation, ${DRIFT} files changed behind its back`, drifted.ms, `drift ${drifted.drift.bytes} bytes, ${drifted.rowsWritten} rows written`);
} finally {
  await studio.stop();
}
