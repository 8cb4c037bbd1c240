// Job options the Worker stored are read with their kind's schema (core/protocol/node-routes.ts) when a node reports
// on the job or claims it. A row that does not fit is a bug to surface: a 500 and its log line, never a render id of
// "" or segment 0 (a progress report sent to the wrong render) nor an empty options object handed to a node.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/auth/tokens.ts";
import { signIn } from "./helpers.ts";
import { nodeCall, registerNode } from "./node-helpers.ts";

async function insertJob(userId: string, kind: string, status: string, options: string, nodeId: string | null = null) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO jobs (id, user_id, slug, kind, status, options, node_id, lease_expires_at, attempts, created_at) VALUES (?, ?, 'broken', ?, ?, ?, ?, ?, 1, ?)",
  )
    .bind(id, userId, kind, status, options, nodeId, nodeId ? Date.now() + 60_000 : null, Date.now())
    .run();
  return id;
}

describe("stored job options", () => {
  it("that do not fit their kind's schema fail the node's call with a 500, not a guess", async () => {
    const key = await registerNode("options-reader");
    const s = await signIn("Options Owner");
    const node = await env.DB.prepare("SELECT id FROM render_nodes WHERE key_hash = ?").bind(await sha256Hex(key)).first<{ id: string }>();
    for (const [kind, options] of [
      ["segment", JSON.stringify({ index: 2 })], // no renderId
      ["segment", JSON.stringify({ renderId: "r1", index: -1 })],
      ["join", JSON.stringify({ segments: [0] })],
    ] as const) {
      const id = await insertJob(s.userId, kind, "running", options, node!.id);
      const res = await nodeCall(key, "POST", `/jobs/${id}/progress`, { lines: ["frame 1"] });
      expect(res.status, `${kind} ${options}`).toBe(500);
      expect(await res.json()).toMatchObject({ code: "internal" });
    }
  });

  it("that are not an object fail the claim with a 500 instead of handing the node {}", async () => {
    const key = await registerNode("options-claimer");
    const s = await signIn("Options Claimer");
    await insertJob(s.userId, "snapshot", "queued", JSON.stringify(["not", "an", "object"]));
    const res = await nodeCall(key, "POST", "/jobs/claim?wait=0", { kinds: ["snapshot"] });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: "internal" });
  });
});
