// Benchmark (not a test): the storage ledger's reconciliation (worker/storage/storage-ledger.ts) for one user with
// 100,000 files, under `wrangler dev`: the ledger's real Durable Object SQLite, over a synthetic R2 bucket whose
// listing pages each wait --page-ms (bench/ledger-bench/worker.ts; a model of R2's list latency, 0 for none).
//   node bench/ledger-reconcile.ts [--files 100000] [--projects 50] [--drift 100] [--page-ms 20]
// Prints: the R2 listing as one chain of pages per prefix (as the ledger listed before) and with the projects side by
// side (list-stored.ts); the ledger's first count; a reconciliation with nothing drifted and one after --drift files
// changed behind its back (wall time, rows of the ledger's table written); and the table rewrite the reconciliation
// did before this change (every row deleted and inserted again), on the same table.
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
const DRIFT = arg("drift", 100);
const PAGE_MS = arg("page-ms", 20);

await buildDashboard();
const studio = await startStudio({
  port: 18_760,
  dataDir: await mkdtemp(join(tmpdir(), "studio-ledger-bench-")),
  renderNode: false,
  entry: "bench/ledger-bench/worker.ts",
  vars: { LEDGER_BENCH_FILES: String(FILES), LEDGER_BENCH_PROJECTS: String(arg("projects", 50)), LEDGER_BENCH_PAGE_MS: String(PAGE_MS) },
});

async function call<T>(path: string, query = ""): Promise<T & { ms: number }> {
  const res = await fetch(`${studio.url}/__bench/ledger/${path}${query}`, { method: "POST" });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T & { ms: number };
}

type Reconciled = { drift: { bytes: number; objects: number }; after: { objects: number }; rowsWritten: number };
const row = (what: string, ms: number, detail: string) => console.log(`| ${what} | ${(ms / 1000).toFixed(2)} s | ${detail} |`);

try {
  console.log(`${FILES} files, R2 list pages of 1,000 keys modelled at ${PAGE_MS} ms each\n`);
  console.log("| step | wall time | what |\n| --- | --- | --- |");
  const chains = await call<{ objects: number }>("list-chains");
  row("R2 listing, one chain of pages per prefix (before)", chains.ms, `${chains.objects} objects`);
  const sideBySide = await call<{ objects: number }>("list-stored");
  row("R2 listing, projects side by side (list-stored.ts)", sideBySide.ms, `${sideBySide.objects} objects`);
  const first = await call<{ usage: { objects: number } }>("first-count");
  row("first count (the ledger's first use: every row inserted)", first.ms, `${first.usage.objects} objects`);
  const inStep = await call<Reconciled>("reconcile");
  row("reconciliation, nothing drifted", inStep.ms, `drift ${inStep.drift.bytes} bytes, ${inStep.rowsWritten} rows written`);
  await call("grow", `?n=${DRIFT}`);
  const drifted = await call<Reconciled>("reconcile");
  row(`reconciliation, ${DRIFT} files changed behind its back`, drifted.ms, `drift ${drifted.drift.bytes} bytes, ${drifted.rowsWritten} rows written`);
  const rewrite = await call<{ rowsWritten: number }>("full-rewrite");
  row("the table rewrite every reconciliation did before (SQL only, no listing)", rewrite.ms, `${rewrite.rowsWritten} rows written`);
} finally {
  await studio.stop();
}
