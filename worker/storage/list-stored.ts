// Everything a user stores against their quota, listed from R2 for the ledger's reconciliation: their projects'
// files and their renders. A listing is a chain of pages (1,000 keys each, each page waiting for the cursor of the
// one before), so one user's 100,000 files listed in one chain take 100 round trips in a row. Each project is its
// own prefix, so the projects are listed side by side instead (a delimited listing names them first), at most
// LISTING_CONCURRENCY chains at once: the wall time is that of the largest project, not of all of them.
import { renderPrefix, userProjectsPrefix } from "./keys.ts";

/** Chains of pages listed at once (R2 calls from one Worker invocation share its six connections). */
export const LISTING_CONCURRENCY = 6;

/** What the ledger keeps of a listed object. */
export interface ListedObject {
  key: string;
  size: number;
}

/** Every object under `prefix`, page by page; `delimiter` stops at the next "/" and returns the prefixes found. */
async function listChain(bucket: R2Bucket, prefix: string, delimiter?: string): Promise<{ objects: ListedObject[]; prefixes: string[] }> {
  const objects: ListedObject[] = [];
  const prefixes: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, limit: 1000, ...(delimiter ? { delimiter } : {}) });
    for (const o of page.objects) objects.push({ key: o.key, size: o.size });
    prefixes.push(...page.delimitedPrefixes);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return { objects, prefixes };
}

/** Runs `tasks` with at most `limit` running at once; the results in the tasks' order. */
async function pooled<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** Every object of the user's projects and renders (segments, seg/, are scratch space and not counted). */
export async function listStored(bucket: R2Bucket, userId: string): Promise<ListedObject[]> {
  const top = await listChain(bucket, userProjectsPrefix(userId), "/");
  const chains = [...top.prefixes, renderPrefix(userId)].map((prefix) => () => listChain(bucket, prefix));
  const listed = await pooled(chains, LISTING_CONCURRENCY);
  return [...top.objects, ...listed.flatMap((l) => l.objects)];
}
