// The studio Worker with a few bench-only routes under /__bench/ledger/ (bench/ledger-reconcile.ts): fill one user's
// R2 prefixes with many small files, change some behind the ledger's back, time a listing, and reconcile that user's
// StorageLedger. Never deployed: the bench runs it under `wrangler dev`.
import studio from "../../worker/index.ts";
import type { Env } from "../../worker/env.ts";
import { listObjects } from "../../worker/storage/list-objects.ts";
import { listStored } from "../../worker/storage/list-stored.ts";
import { renderPrefix, userProjectsPrefix } from "../../worker/storage/keys.ts";
import { storageLedgerOf } from "../../worker/storage/storage-ledger.ts";

export * from "../../worker/index.ts";

/** The i-th file of the bench user: spread over `projects` projects, a few renders among them. */
export const benchKey = (userId: string, i: number, projects: number) =>
  i % 100 === 99 ? `${renderPrefix(userId)}render-${i}.mp4` : `${userProjectsPrefix(userId)}project-${i % projects}/assets/file-${i}.txt`;

async function bench(url: URL, env: Env): Promise<Response> {
  const q = (name: string) => url.searchParams.get(name) ?? "";
  const user = q("user");
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  switch (url.pathname) {
    case "/__bench/ledger/seed": {
      const [from, to, projects] = [Number(q("from")), Number(q("to")), Number(q("projects"))];
      const keys = Array.from({ length: to - from }, (_, n) => benchKey(user, from + n, projects));
      await Promise.all(keys.map((key) => env.FILES.put(key, "x".repeat(100))));
      return Response.json({ put: keys.length, ms: took() });
    }
    case "/__bench/ledger/drift": {
      // `n` files grow by one byte behind the ledger's back.
      const [n, total, projects] = [Number(q("n")), Number(q("total")), Number(q("projects"))];
      const keys = Array.from({ length: n }, (_, k) => benchKey(user, Math.floor((k * total) / n), projects));
      await Promise.all(keys.map((key) => env.FILES.put(key, "x".repeat(101))));
      return Response.json({ changed: n, ms: took() });
    }
    case "/__bench/ledger/list-chains": {
      // As the ledger listed before: one chain of pages per prefix, the two prefixes side by side.
      const listed = (await Promise.all([listObjects(env.FILES, userProjectsPrefix(user)), listObjects(env.FILES, renderPrefix(user))])).flat();
      return Response.json({ objects: listed.length, ms: took() });
    }
    case "/__bench/ledger/list-stored": {
      const listed = await listStored(env.FILES, user);
      return Response.json({ objects: listed.length, ms: took() });
    }
    case "/__bench/ledger/reconcile": {
      const result = await storageLedgerOf(env, user).reconcile(user);
      return Response.json({ ...result, ms: took() });
    }
    default:
      return new Response("unknown bench route", { status: 404 });
  }
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname.startsWith("/__bench/ledger/")) return bench(url, env);
    return studio.fetch(request, env, ctx);
  },
  scheduled: studio.scheduled,
} satisfies ExportedHandler<Env>;
