// Scopes enforced where an OAuth grant reaches the REST app: the MCP tools' in-process calls carry the grant
// (worker/oauth/oauth-caller.ts), and each route checks it (route-scopes.ts). Here the grant's requests are made
// directly, as a tool would make them, so a route a tool table forgot is still covered; and every tool a personal
// token sees must have scopes in the tool table (a new tool is hidden from grants until it has).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { createApiApp } from "../../worker/app.ts";
import { carryGrant } from "../../worker/oauth/oauth-caller.ts";
import type { Scope } from "../../worker/oauth/scopes.ts";
import { TOOL_SCOPES } from "../../worker/oauth/tool-scopes.ts";
import { BASE, createProject, signIn } from "./helpers.ts";

const app = createApiApp();

/** A request made in-process as an OAuth grant of `userId` with `scopes`, as worker/mcp/rest-client.ts makes it. */
async function asGrant(user: { id: string; name: string }, scopes: Scope[], method: string, path: string, body?: unknown) {
  const req = new Request(`${BASE}${path}`, { method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
  carryGrant(req, { user: { ...user, email: null, avatarUrl: null, provider: "dev", createdAt: 0 }, scopes, clientId: "client", grantId: "grant" });
  return app.fetch(req, env as unknown as Env, { waitUntil: () => undefined, passThroughOnException: () => undefined, props: {} } as unknown as ExecutionContext);
}

describe("REST routes reached by an OAuth grant", () => {
  it("answer within the grant's scopes and refuse outside them with 403 insufficient_scope", async () => {
    const s = await signIn("Scoped Sam");
    const { slug } = await createProject(s.token, "Scoped");
    const user = { id: s.userId, name: "Scoped Sam" };
    const read: Scope[] = ["projects:read"];
    expect((await asGrant(user, read, "GET", "/api/projects")).status).toBe(200);
    expect((await asGrant(user, read, "GET", `/api/projects/${slug}/files/index.html`)).status).toBe(200);
    for (const [method, path, body] of [
      ["POST", `/api/projects/${slug}/render`, {}],
      ["POST", `/api/projects/${slug}/snapshot`, {}],
      ["POST", "/api/projects", { name: "Escalated" }],
      ["PUT", `/api/projects/${slug}/files/evil.txt`, undefined],
      ["DELETE", `/api/projects/${slug}`, undefined],
      ["POST", "/api/ideas", { title: "From a reader" }],
    ] as const) {
      const res = await asGrant(user, read, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe("insufficient_scope");
    }
    // With projects:write, writes go through; render still needs render.
    expect((await asGrant(user, ["projects:write"], "POST", "/api/projects", { name: "Written" })).status).toBe(201);
    expect((await asGrant(user, ["projects:write"], "POST", `/api/projects/${slug}/render`, {})).status).toBe(403);
  });

  it("never reach account routes, whatever the scopes: token rotation, keys, connected apps, share links", async () => {
    const s = await signIn("Closed Cleo");
    const { slug } = await createProject(s.token, "Closed");
    const all: Scope[] = ["projects:read", "projects:write", "render", "ideas"];
    const user = { id: s.userId, name: "Closed Cleo" };
    for (const [method, path] of [
      ["POST", "/api/me/token/rotate"],
      ["GET", "/api/me/apps"],
      ["GET", "/api/bots"],
      ["POST", "/api/bots"],
      ["GET", "/api/node-keys"],
      ["GET", "/api/webhooks/secret"],
      ["POST", "/api/webhooks/secret"],
      ["POST", `/api/projects/${slug}/share`],
      ["POST", "/auth/logout"],
      ["GET", `/play/${slug}`],
    ]) {
      const res = await asGrant(user, all, method!, path!);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // The identity a grant sees has no personal token.
    const me = await asGrant(user, all, "GET", "/api/me");
    expect(me.status).toBe(200);
    const body = (await me.json()) as Record<string, unknown>;
    expect(body.token).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain(s.token);
  });

  it("cannot be claimed from outside: a request carrying no grant object is anonymous", async () => {
    const res = await app.fetch(new Request(`${BASE}/api/projects`), env as unknown as Env);
    expect(res.status).toBe(401);
  });
});

describe("the tool table", () => {
  it("gives scopes to every tool a personal token sees", async () => {
    const s = await signIn("Table Tia");
    const res = await fetchTools(s.token);
    const missing = res.filter((name) => !Object.hasOwn(TOOL_SCOPES, name));
    expect(missing).toEqual([]);
  });
});

async function fetchTools(token: string): Promise<string[]> {
  const { SELF } = await import("cloudflare:test");
  const res = await SELF.fetch(`${BASE}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  const text = await res.text();
  const data = text.startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data: "))!.slice(6);
  return (JSON.parse(data) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
}
