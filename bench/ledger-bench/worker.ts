// The studio Worker for bench/ledger-reconcile.ts: its StorageLedger runs on real Durable Object SQLite, but over a
// synthetic R2 bucket that lists LEDGER_BENCH_FILES small files of one user (spread over projects, a few renders)
// page by page, each page after LEDGER_BENCH_PAGE_MS (a model of R2's list latency): filling local R2 with 100,000
// objects takes hours on these machines. Bench-only routes under /__bench/ledger/ time the listings and drive the
// ledger. Never deployed: the bench runs it under `wrangler dev`.
import studio from "../../worker/index.ts";
import type { Env } from "../../worker/env.ts";
import { listObjects } from "../../worker/storage/list-objects.ts";
import { listStored } from "../../worker/storage/list-stored.ts";
import { renderPrefix, userProjectsPrefix } from "../../worker/storage/keys.ts";
import { StorageLedger as StudioLedger } from "../../worker/storage/storage-ledger.ts";

export * from "../../worker/index.ts";

interface BenchEnv extends Env {
  LEDGER_BENCH_USER?: string;
  LEDGER_BENCH_FILES?: string;
  LEDGER_BENCH_PROJECTS?: string;
  LEDGER_BENCH_PAGE_MS?: string;
}

/** An R2 bucket that lists a fixed, sorted set of keys (its `list` only: what a reconciliation calls). */
class SyntheticBucket {
  private readonly keys: string[];
  private readonly sizes = new Map<string, number>();
  constructor(userId: string, files: number, projects: number, private readonly pageMs: number) {
    this.keys = Array.from({ length: files }, (_, i) =>
      i % 100 === 99 ? `${renderPrefix(userId)}render-${i}.mp4` : `${userProjectsPrefix(userId)}project-${i % projects}/assets/file-${i}.txt`,
    ).sort();
  }

  /** `n` files, spread over the listing, change size behind the ledger's back. */
  grow(n: number): void {
    for (let k = 0; k < n; k++) this.sizes.set(this.keys[Math.floor((k * this.keys.length) / n)]!, 101);
  }

  async list(o: { prefix: string; cursor?: string; limit?: number; delimiter?: string }) {
    if (this.pageMs > 0) await new Promise((resolve) => setTimeout(resolve, this.pageMs));
    let i = o.cursor ? Number(o.cursor) : this.firstAtLeast(o.prefix);
    const objects: { key: string; size: number }[] = [];
    const delimitedPrefixes: string[] = [];
    const limit = o.limit ?? 1000;
    while (i < this.keys.length && this.keys[i]!.startsWith(o.prefix) && objects.length + delimitedPrefixes.length < limit) {
      const key = this.keys[i]!;
      const cut = o.delimiter ? key.indexOf(o.delimiter, o.prefix.length) : -1;
      if (cut === -1) {
        objects.push({ key, size: this.sizes.get(key) ?? 100 });
        i++;
        continue;
      }
      const prefix = key.slice(0, cut + 1);
      delimitedPrefixes.push(prefix);
      i = this.firstAtLeast(prefix + "\uffff");
    }
    const truncated = i < this.keys.length && this.keys[i]!.startsWith(o.prefix);
    return { objects, delimitedPrefixes, truncated, cursor: truncated ? String(i) : undefined };
  }

  private firstAtLeast(key: string): number {
    let [lo, hi] = [0, this.keys.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function syntheticBucket(env: BenchEnv): SyntheticBucket {
  return new SyntheticBucket(env.LEDGER_BENCH_USER ?? "bench-user", Number(env.LEDGER_BENCH_FILES ?? 100_000), Number(env.LEDGER_BENCH_PROJECTS ?? 50), Number(env.LEDGER_BENCH_PAGE_MS ?? 0));
}

/** The studio's ledger over the synthetic bucket, with two bench-only calls. */
export class StorageLedger extends StudioLedger {
  private readonly bucket: SyntheticBucket;
  constructor(ctx: DurableObjectState, env: BenchEnv) {
    const bucket = syntheticBucket(env);
    super(ctx, { ...env, FILES: bucket as unknown as R2Bucket });
    this.bucket = bucket;
  }

  benchGrow(n: number): void {
    this.bucket.grow(n);
  }

  /** What the reconciliation did before this change, on the same table: every row deleted, then each inserted. */
  benchFullRewrite(): { ms: number; rowsWritten: number } {
    const started = performance.now();
    const sql = this.ctx.storage.sql;
    let rowsWritten = 0;
    this.ctx.storage.transactionSync(() => {
      const rows = sql.exec<{ key: string; size: number }>("SELECT key, size FROM objects").toArray();
      rowsWritten += sql.exec("DELETE FROM objects").rowsWritten;
      for (const r of rows) rowsWritten += sql.exec("INSERT OR REPLACE INTO objects (key, size) VALUES (?, ?)", r.key, r.size).rowsWritten;
    });
    return { ms: Math.round(performance.now() - started), rowsWritten };
  }
}

async function bench(url: URL, env: BenchEnv): Promise<Response> {
  const user = env.LEDGER_BENCH_USER ?? "bench-user";
  const ledger = env.STORAGE_LEDGER.get(env.STORAGE_LEDGER.idFromName(user)) as unknown as DurableObjectStub<StorageLedger>;
  const files = syntheticBucket(env) as unknown as R2Bucket;
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  switch (url.pathname) {
    case "/__bench/ledger/list-chains": {
      // As the ledger listed before: one chain of pages per prefix, the two prefixes side by side.
      const listed = (await Promise.all([listObjects(files, userProjectsPrefix(user)), listObjects(files, renderPrefix(user))])).flat();
      return Response.json({ objects: listed.length, ms: took() });
    }
    case "/__bench/ledger/list-stored":
      return Response.json({ objects: (await listStored(files, user)).length, ms: took() });
    case "/__bench/ledger/first-count": {
      // The ledger's first use counts what R2 holds (every row inserted, as before this change).
      const usage = await ledger.usage(user);
      return Response.json({ usage, ms: took() });
    }
    case "/__bench/ledger/reconcile":
      return Response.json({ ...(await ledger.reconcile(user)), ms: took() });
    case "/__bench/ledger/grow":
      await ledger.benchGrow(Number(url.searchParams.get("n")));
      return Response.json({ ms: took() });
    case "/__bench/ledger/full-rewrite":
      return Response.json(await ledger.benchFullRewrite());
    default:
      return new Response("unknown bench route", { status: 404 });
  }
}

export default {
  async fetch(request: Request, env: BenchEnv, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname.startsWith("/__bench/ledger/")) return bench(url, env);
    return studio.fetch(request, env, ctx);
  },
  scheduled: studio.scheduled,
} satisfies ExportedHandler<BenchEnv>;
