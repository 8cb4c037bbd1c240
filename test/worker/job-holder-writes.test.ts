// A node's writes to its job hold only while the job is still its own. The routes check the holder when they read
// the job (node-caller.ts heldJob), but a lease can lapse and another node claim the job between that read and the
// write: the old holder's progress must not renew the new holder's lease, its preview port must not replace the new
// node's, and its completion must not end the job the new node is doing (worker/renders/farm/queue.ts heldBy).
import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { openDb } from "../../worker/db/client.ts";
import { endJob, renewLease, setRunningResult } from "../../worker/renders/farm/queue.ts";
import { signIn } from "./helpers.ts";

/** A job running as claimed again: node B, attempt 2 (node A held attempt 1 until its lease lapsed). */
async function reclaimedJob(kind: string): Promise<string> {
  const { userId } = await signIn(`holder-${kind}`);
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO jobs (id, user_id, slug, kind, status, options, node_id, lease_expires_at, attempts, created_at, started_at) VALUES (?, ?, 'holder', ?, 'running', '{}', 'node-b', 1000, 2, ?, ?)",
  ).bind(id, userId, kind, Date.now(), Date.now()).run();
  return id;
}

const row = (id: string) => env.DB.prepare("SELECT status, result, lease_expires_at AS lease FROM jobs WHERE id = ?").bind(id).first<{ status: string; result: string | null; lease: number }>();
const oldHolder = { nodeId: "node-a", attempt: 1 };
const newHolder = { nodeId: "node-b", attempt: 2 };

it("the holder before a lost lease neither ends, sets nor renews the job; its new holder does", async () => {
  const db = openDb(env.DB);
  const snapshot = await reclaimedJob("snapshot");
  expect(await endJob(db, snapshot, "done", { result: { frames: ["stale"] } }, oldHolder)).toBe(false);
  // The same node key naming the old attempt is not the holder either.
  expect(await endJob(db, snapshot, "failed", { error: "stale" }, { nodeId: "node-b", attempt: 1 })).toBe(false);
  expect(await row(snapshot)).toEqual({ status: "running", result: null, lease: 1000 });
  expect(await endJob(db, snapshot, "done", { result: { frames: ["new"] } }, newHolder)).toBe(true);
  expect(await row(snapshot)).toMatchObject({ status: "done", result: JSON.stringify({ frames: ["new"] }) });

  const preview = await reclaimedJob("preview");
  expect(await setRunningResult(db, preview, { port: 1111 }, oldHolder)).toBe(false);
  await renewLease(db, preview, 60_000, "stale stage", oldHolder);
  expect(await row(preview)).toEqual({ status: "running", result: null, lease: 1000 });
  expect(await setRunningResult(db, preview, { port: 2222 }, newHolder)).toBe(true);
  await renewLease(db, preview, 60_000, undefined, newHolder);
  const after = await row(preview);
  expect(after?.result).toBe(JSON.stringify({ port: 2222 }));
  expect(after!.lease).toBeGreaterThan(Date.now());
});
