// A render node as the Worker sees one: a registered key and the protocol's HTTP calls.
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { ClaimAnswerSchema, ClaimResponseSchema, type ClaimedJob } from "../../core/protocol/node-routes.ts";
import { sha256Hex } from "../../worker/auth/tokens.ts";
import { BASE } from "./helpers.ts";
import { outboxOf } from "../../worker/webhooks/outbox-of.ts";

export async function registerNode(name = "test-node"): Promise<string> {
  const key = `stn_${crypto.randomUUID().replace(/-/g, "")}${crypto.randomUUID().replace(/-/g, "")}`;
  await env.DB.prepare("INSERT INTO render_nodes (id, name, key_hash, created_at) VALUES (?, ?, ?, ?)")
    .bind(crypto.randomUUID(), name, await sha256Hex(key), Date.now())
    .run();
  return key;
}

export function nodeCall(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { Authorization: `Bearer ${key}`, ...headers } };
  if (body instanceof Uint8Array) init.body = body as Uint8Array<ArrayBuffer>;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  return SELF.fetch(`${BASE}/api/node${path}`, init);
}

export type { ClaimedJob };

export async function claim(key: string): Promise<ClaimedJob | null> {
  const res = await nodeCall(key, "POST", "/jobs/claim?wait=0", { kinds: ["render"] });
  if (res.status === 204) return null;
  if (res.status !== 200) throw new Error(`claim failed: ${res.status} ${await res.text()}`);
  return ClaimResponseSchema.parse(await res.json()).job;
}

/** Claims one queued job of `kind` (any user's), or null. */
export async function claimKind(key: string, kind: string): Promise<ClaimedJob | null> {
  const res = await nodeCall(key, "POST", "/jobs/claim?wait=0", { kinds: [kind] });
  if (res.status === 204) return null;
  if (res.status !== 200) throw new Error(`claim failed: ${res.status} ${await res.text()}`);
  return ClaimResponseSchema.parse(await res.json()).job;
}

/** Claims until a job of `kind` shows up (the request that queued it runs concurrently). */
export async function awaitJob(key: string, kind: string): Promise<ClaimedJob> {
  for (let i = 0; i < 100; i++) {
    const job = await claimKind(key, kind);
    if (job) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ${kind} job appeared`);
}

/** Reads Server-Sent Events from a streaming response, one parsed event at a time. */
export function sseReader(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    async next(): Promise<{ event: string; data: Record<string, unknown>; id?: number }> {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(":")) continue;
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
          const data = /^data: (.*)$/m.exec(block)?.[1] ?? "null";
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          return { event, data: JSON.parse(data) as Record<string, unknown>, ...(id === undefined ? {} : { id: Number(id) }) };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        buffer += value;
      }
    },
    /** Whether the server ended the stream (after reading what is left). */
    async closed(): Promise<boolean> {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return true;
        buffer += value;
        if (buffer.replace(/^:.*\n\n/gm, "").trim()) return false;
      }
    },
    async cancel() {
      await reader.cancel();
    },
  };
}

/** How many distinct nodes wait on the JobBoard now for work of `kind` (what a plan counts as idle). */
export function idleOnBoard(kind: string): Promise<number> {
  return env.JOB_BOARD.get(env.JOB_BOARD.idFromName("all")).idleNodes(kind as ClaimedJob["kind"]);
}

/**
 * Idle nodes played: one long-poll claim of render work per node id on `key`, each parked on the JobBoard (as a
 * real node between jobs is) before this returns. Each follows the protocol as the node's loop does: told to claim
 * again (work came while it waited), it claims again at once. Each resolves with the job it took, or null after `waitS`.
 */
export async function parkIdleNodes(key: string, nodeIds: readonly string[], waitS = 20): Promise<Promise<ClaimedJob | null>[]> {
  const before = await idleOnBoard("segment");
  const deadline = Date.now() + waitS * 1000;
  const claims = nodeIds.map(async (nodeId) => {
    for (;;) {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      const res = await nodeCall(key, "POST", `/jobs/claim?wait=${left}`, { kinds: ["render", "segment", "join"], nodeId });
      if (res.status === 204) return null;
      if (res.status !== 200) throw new Error(`claim failed: ${res.status} ${await res.text()}`);
      const { job } = ClaimAnswerSchema.parse(await res.json());
      if (job) return job;
    }
  });
  for (let i = 0; (await idleOnBoard("segment")) < before + nodeIds.length; i++) {
    if (i > 200) throw new Error(`the ${nodeIds.length} claims never parked on the board`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return claims;
}

/** The bodies queued for a render's (or batch's) webhook deliveries, exactly as they are signed and sent, parsed. */
export async function deliveredBodies(userId: string, renderId: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  return runInDurableObject(outboxOf(env, userId), (_outbox, ctx) =>
    ctx.storage.sql
      .exec<{ payload: string }>("SELECT payload FROM deliveries WHERE render_id = ? ORDER BY created_at", renderId)
      .toArray()
      .map((row) => JSON.parse(row.payload) as { type: string; data: Record<string, unknown> }),
  );
}
