// Render node keys over the API: an admin issues one (shown once), lists it (never the key), a node works with it
// until it is revoked, then gets 401. Everybody else is refused with nothing written.
import { afterEach, describe, expect, it } from "vitest";
import { api, BASE, createProject, json, signIn } from "./helpers.ts";
import { browser, countRows, issueBot, setEnv } from "./idea-helpers.ts";
import { awaitJob, idleOnBoard, nodeCall } from "./node-helpers.ts";

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

async function admin(name: string) {
  const session = await signIn(name);
  restore = setEnv({ ADMIN_USER_IDS: `someone-else,${session.userId}` });
  return session;
}

type NodeKey = { id: string; name: string; createdAt: string; lastSeenAt: string | null; online: boolean; key?: string };
const claim = (key: string) => nodeCall(key, "POST", "/jobs/claim?wait=0", { nodeId: "keys-test", kinds: ["render"] });

describe("/api/node-keys", () => {
  it("issues a key once, lists it without the key, the node works with it, and revoking it locks the node out", async () => {
    const { token } = await admin("keys-admin");
    const res = await api(token, "POST", "/api/node-keys", { name: "farm-1" });
    expect(res.status).toBe(201);
    const issued = await json<NodeKey>(res);
    expect(issued).toMatchObject({ name: "farm-1", lastSeenAt: null, online: false });
    expect(issued.key).toMatch(/^stn_[\w-]{43}$/);

    expect([200, 204]).toContain((await claim(issued.key!)).status);
    const listed = await api(token, "GET", "/api/node-keys");
    const text = await listed.text();
    expect(text).not.toContain(issued.key!);
    expect(text).not.toMatch(/keyHash|key_hash|"key"/);
    const mine = (JSON.parse(text) as { nodeKeys: NodeKey[] }).nodeKeys.find((k) => k.id === issued.id);
    expect(mine).toMatchObject({ name: "farm-1", online: true });
    expect(Date.parse(mine!.lastSeenAt!)).toBeGreaterThan(Date.now() - 10_000);

    const revoked = await api(token, "DELETE", `/api/node-keys/${issued.id}`);
    expect(await json(revoked)).toEqual({ revoked: true, id: issued.id });
    const refused = await claim(issued.key!);
    expect(refused.status).toBe(401);
    expect(await json(refused)).toEqual({ error: "unauthorized: invalid or revoked token", code: "unauthorized" });
    expect((await api(token, "DELETE", `/api/node-keys/${issued.id}`)).status).toBe(404);
    expect((await json<{ nodeKeys: NodeKey[] }>(await api(token, "GET", "/api/node-keys"))).nodeKeys.some((k) => k.id === issued.id)).toBe(false);
  });

  it("a claim already waiting when its key is revoked is handed no job: the work stays queued for a live node", async () => {
    const { token } = await admin("keys-revoked-waiting");
    const revokedKey = await json<NodeKey>(await api(token, "POST", "/api/node-keys", { name: "revoked-while-waiting" }));
    const liveKey = await json<NodeKey>(await api(token, "POST", "/api/node-keys", { name: "live-node" }));
    // The revoked node's claim is parked on the JobBoard, its key already checked (a real node between jobs).
    const before = await idleOnBoard("render");
    const waiting = nodeCall(revokedKey.key!, "POST", "/jobs/claim?wait=3", { nodeId: "waiting", kinds: ["render"] });
    for (let i = 0; (await idleOnBoard("render")) <= before; i++) {
      if (i > 200) throw new Error("the claim never parked on the board");
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await json(await api(token, "DELETE", `/api/node-keys/${revokedKey.id}`))).toEqual({ revoked: true, id: revokedKey.id });
    // Work arrives while it waits: the board wakes it, and its claim comes back without a job (told to claim again,
    // as every claim that waited is; its next claim is the 401 above).
    const user = await signIn("keys-revoked-user");
    await createProject(user.token, "Revoked Wait");
    expect((await api(user.token, "POST", "/api/projects/revoked-wait/render", { quality: "draft" })).status).toBe(202);
    expect(await json(await waiting)).toEqual({ job: null, claimAgain: true });
    expect((await nodeCall(revokedKey.key!, "POST", "/jobs/claim?wait=0", { nodeId: "waiting", kinds: ["render"] })).status).toBe(401);
    // The render is still queued, and a node whose key lives takes it.
    const taken = await awaitJob(liveKey.key!, "render");
    expect(taken.slug).toBe("revoked-wait");
    await api(user.token, "DELETE", "/api/projects/revoked-wait/render");
  }, 20_000);

  it("works from the dashboard with the session cookie", async () => {
    const { cookie } = await admin("keys-cookie");
    const res = await browser(cookie, "POST", "/api/node-keys", { name: "from-dashboard" }, { Origin: BASE });
    expect(res.status).toBe(201);
    const { id } = await json<NodeKey>(res);
    expect((await browser(cookie, "DELETE", `/api/node-keys/${id}`, undefined, { Origin: BASE })).status).toBe(200);
  });

  it("refuses non-admins, bots, nodes and anonymous callers, and writes nothing", async () => {
    const before = await countRows("render_nodes");
    const user = await signIn("keys-user");
    for (const method of ["GET", "POST"] as const) {
      const res = await api(user.token, method, "/api/node-keys", method === "POST" ? { name: "sneaky" } : undefined);
      expect(res.status).toBe(403);
      expect((await json<{ error: string }>(res)).error).toMatch(/^only admins \(ADMIN_USER_IDS\) manage render node keys/);
    }
    expect((await api(null, "GET", "/api/node-keys")).status).toBe(401);
    const { key: botKey } = await issueBot(user.token, "keys-bot");
    // Even a bot of an admin cannot: it is not the admin.
    restore = setEnv({ ADMIN_USER_IDS: user.userId });
    expect((await api(botKey, "POST", "/api/node-keys", { name: "bot-made" })).status).toBe(403);
    const adminToken = user.token;
    const { key: nodeKey, id } = await json<NodeKey>(await api(adminToken, "POST", "/api/node-keys", { name: "a-node" }));
    expect((await api(nodeKey!, "POST", "/api/node-keys", { name: "node-made" })).status).toBe(403);
    expect((await api(nodeKey!, "DELETE", `/api/node-keys/${id}`)).status).toBe(403);
    await api(adminToken, "DELETE", `/api/node-keys/${id}`);
    expect(await countRows("render_nodes")).toBe(before);
  });

  it("bad names and unknown fields are 400 with nothing written", async () => {
    const { token } = await admin("keys-bad");
    const before = await countRows("render_nodes");
    for (const body of [{ name: "" }, { name: "has space" }, { name: "x".repeat(61) }, { name: "ok", extra: 1 }, {}]) {
      const res = await api(token, "POST", "/api/node-keys", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof (await json<{ error: string }>(res)).error).toBe("string");
    }
    expect(await countRows("render_nodes")).toBe(before);
  });
});
