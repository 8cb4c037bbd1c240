// The credential gate (worker/auth/authenticate.ts): a caller this isolate has seen is not looked up before the
// work; the check that the credential is still valid rides on the request's D1 calls (the guard first in each batch). Round trips are counted
// with the bench's traced D1 binding (bench/d1-trace/trace-d1.ts), the Worker called directly with it, so the cache
// warmed by one request is the one the next request uses.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { guardStatement } from "../../worker/auth/credential-guard.ts";
import { bindingKind, gatedEnv } from "../../worker/auth/gated-bindings.ts";
import { RequestGate } from "../../worker/auth/request-gate.ts";
import { lookupFor } from "../../worker/auth/resolvers.ts";
import { sha256Hex } from "../../worker/auth/tokens.ts";
import type { Env } from "../../worker/env.ts";
import { BASE } from "./helpers.ts";
import { bearer, createProject, send, signIn, type Sent } from "./traced-worker.ts";

describe("the credential guard", () => {
  it("fails as SQL when the credential is unknown, and a write batched after it is rolled back", async () => {
    const lookup = lookupFor("user")!;
    const before = await env.DB.prepare("SELECT count(*) AS n FROM visitors").first<{ n: number }>();
    const write = env.DB.prepare("INSERT INTO visitors (id, first_seen, last_seen, visits) VALUES ('guarded', 1, 1, 1)");
    await expect(env.DB.batch([guardStatement(env.DB, lookup, await sha256Hex("stu_nobody"), Date.now()), write])).rejects.toThrow(/malformed JSON/);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM visitors").first<{ n: number }>()).toEqual(before);

    const { token } = await signIn("Guarded Gina");
    const [guard, inserted] = await env.DB.batch<Record<string, unknown>>([guardStatement(env.DB, lookup, await sha256Hex(token), Date.now()), write]);
    expect(guard!.results[0]).toMatchObject({ name: "Guarded Gina", provider: "dev", studio_guard: "{}" });
    expect(inserted!.meta.changes).toBe(1);
  });

  it("applies to a Sessions API session: a first read is refused, a first write is guarded and rolled back", async () => {
    const lookup = lookupFor("user")!;
    const caller = { user: { id: "ghost", name: "Ghost", email: null, avatarUrl: null, provider: "dev", createdAt: 0 }, credential: "token" as const };
    const ghost = { kind: "user" as const, hash: await sha256Hex("stu_revoked"), lookup, caller, problem: "invalid or revoked token" };
    const count = async () => (await env.DB.prepare("SELECT count(*) AS n FROM visitors WHERE id = 'session-write'").first<{ n: number }>())?.n;
    const insert = "INSERT INTO visitors (id, first_seen, last_seen, visits) VALUES ('session-write', 1, 1, 1)";

    const reading = new RequestGate(env.DB, ghost, true);
    const afterRead = gatedEnv(env as unknown as Env, reading).DB.withSession("first-unconstrained");
    await expect(afterRead.prepare("SELECT 1 AS one").first()).rejects.toThrow("unauthorized: invalid or revoked token");
    expect(await reading.passed()).toBe(false);
    await expect(afterRead.prepare(insert).run()).rejects.toThrow("unauthorized: invalid or revoked token");

    const writing = new RequestGate(env.DB, ghost, false);
    const firstWrite = gatedEnv(env as unknown as Env, writing).DB.withSession("first-primary");
    await expect(firstWrite.batch([firstWrite.prepare(insert)])).rejects.toThrow("unauthorized: invalid or revoked token");
    expect(await count()).toBe(0);
  });

  it("gates every D1 database, R2 bucket and Durable Object namespace of the environment, and nothing else", () => {
    const kinds = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, bindingKind(value)]));
    expect(kinds).toMatchObject({ DB: "d1", FILES: "r2", PROJECT_ROOM: "durable-objects", WEBHOOK_OUTBOX: "durable-objects", JOB_BOARD: "durable-objects", STORAGE_LEDGER: "durable-objects", OAUTH_KV: "kv" });
    expect(kinds.ASSETS).toBeNull();
    const credential = { kind: "user" as const, hash: "", lookup: lookupFor("user")!, caller: {}, problem: "invalid or revoked token" };
    const gated = gatedEnv(env as unknown as Env, new RequestGate(env.DB, credential, true));
    expect(gated.DB).not.toBe(env.DB);
    expect(gated.FILES).not.toBe(env.FILES);
    expect(gated.OAUTH_KV).not.toBe(env.OAUTH_KV);
    expect(gated.ASSETS).toBe(env.ASSETS);
  });
});

describe("round trips to D1's primary", () => {
  it("cost at most one per request on the main endpoints once the caller is cached (two on a cold isolate)", async () => {
    const { token } = await signIn("Far Fiona");
    const slug = await createProject(token, "Far Away");
    const file = `/api/projects/${slug}/files/assets/notes.txt`;
    expect((await send(file, { method: "PUT", headers: bearer(token), body: "hello" })).res.status).toBe(200);

    const endpoints: [string, () => Promise<Sent>][] = [
      ["GET /api/me", () => send("/api/me", { headers: bearer(token) })],
      ["GET /api/projects", () => send("/api/projects", { headers: bearer(token) })],
      ["GET /api/projects/:slug", () => send(`/api/projects/${slug}`, { headers: bearer(token) })],
      ["GET file", () => send(file, { headers: bearer(token) })],
      ["PUT file", () => send(`/api/projects/${slug}/files/assets/draft.txt`, { method: "PUT", headers: bearer(token), body: "draft" })],
      ["POST lint", () => send(`/api/projects/${slug}/lint`, { method: "POST", headers: bearer(token) })],
      ["GET /api/renders", () => send("/api/renders", { headers: bearer(token) })],
      // An MCP tool calls the REST app in-process with the same token: still one trip.
      ["POST /mcp tools/call list_projects", () => send("/mcp", { method: "POST", headers: bearer(token, { "Content-Type": "application/json", Accept: "application/json, text/event-stream" }), body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_projects", arguments: {} } }) })],
    ];
    const over: [string, number, string[]][] = [];
    for (const [name, call] of endpoints) {
      const cold = await call(); // warms the route
      expect(cold.trips, name).toBeLessThanOrEqual(2);
      const { res, trips, log } = await call();
      expect(res.status, name).toBeLessThan(300);
      if (trips > 1) over.push([name, trips, log]);
    }
    expect(over).toEqual([]);
  });

  it("a dashboard script costs none, and a signed-in dashboard page at most one", async () => {
    const { cookie } = await signIn("Dashboard Dan");
    const home = await send("/", { headers: { Cookie: cookie, Accept: "text/html" } });
    expect(home.res.status).toBe(200);
    expect(home.trips).toBeLessThanOrEqual(1);
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(home.body)?.[1];
    expect(script).toBeDefined();
    const asset = await send(script!, { headers: { Cookie: cookie } });
    expect(asset.res.status).toBe(200);
    expect(asset.trips).toBe(0);
    const page = await send("/project?slug=far-away", { headers: { Cookie: cookie, Accept: "text/html" } });
    expect(page.res.status).toBe(200);
    expect(page.trips).toBeLessThanOrEqual(1);
  });
});

describe("a credential that stops being valid stops at once, although the isolate cached its caller", () => {
  /** A user whose token this isolate has cached, then rotated: the old token and the new one. */
  async function rotatedAfterCaching(name: string) {
    const { token: old } = await signIn(name);
    const slug = await createProject(old, "Kept");
    await send("/api/me", { headers: bearer(old) });
    expect((await send("/api/me", { headers: bearer(old) })).trips).toBe(1); // cached: the check rode on the read
    const rotated = await send("/api/me/token/rotate", { method: "POST", headers: bearer(old) });
    expect(rotated.res.status).toBe(200);
    return { old, fresh: (JSON.parse(rotated.body) as { token: string }).token, slug };
  }

  const expectRefused = (sent: { res: Response; body: string }) => {
    expect(sent.res.status).toBe(401);
    expect(JSON.parse(sent.body)).toMatchObject({ error: "unauthorized: invalid or revoked token", code: "unauthorized" });
  };

  it("a rotated token, on a read: the 401, and the speculative answer (the caller's projects) is never sent", async () => {
    const { old, fresh, slug } = await rotatedAfterCaching("Rotating Rita");
    const projects = await send("/api/projects", { headers: bearer(old) });
    expectRefused(projects);
    expect(projects.body).not.toContain(slug);
    expectRefused(await send("/api/me", { headers: bearer(old) }));
    expect((await send("/api/me", { headers: bearer(fresh) })).res.status).toBe(200);
  });

  it("a rotated token, on a file write: the 401 and nothing stored", async () => {
    const { old, fresh, slug } = await rotatedAfterCaching("Rotating Ruth");
    expectRefused(await send(`/api/projects/${slug}/files/assets/late.txt`, { method: "PUT", headers: bearer(old), body: "late" }));
    expect((await send(`/api/projects/${slug}/files/assets/late.txt`, { headers: bearer(fresh) })).res.status).toBe(404);
  });

  it("a rotated token, creating a project: the 401 and no project", async () => {
    const { old, fresh, slug } = await rotatedAfterCaching("Rotating Rhea");
    expectRefused(await send("/api/projects", { method: "POST", headers: bearer(old, { "Content-Type": "application/json" }), body: JSON.stringify({ name: "Late" }) }));
    const list = JSON.parse((await send("/api/projects", { headers: bearer(fresh) })).body) as { projects: { name: string }[] };
    expect(list.projects.map((p) => p.name)).toEqual([slug]);
  });

  it("a rotated token, rotating again: the 401, and the new token still works", async () => {
    const { old, fresh } = await rotatedAfterCaching("Rotating Rosa");
    expectRefused(await send("/api/me/token/rotate", { method: "POST", headers: bearer(old) }));
    expect((await send("/api/me", { headers: bearer(fresh) })).res.status).toBe(200);
  });

  it("a rotated token whose first call is a write: the guard in the batch rolls the write back", async () => {
    const { token: old } = await signIn("Racing Rory");
    await send("/api/me", { headers: bearer(old) }); // caches the caller
    // Rotate behind the isolate's back (another isolate did it): the cache still names the caller.
    await env.DB.prepare("UPDATE api_tokens SET token_hash = 'elsewhere' WHERE token_hash = ?1").bind(await sha256Hex(old)).run();
    const rotate = await send("/api/me/token/rotate", { method: "POST", headers: bearer(old) });
    expect(rotate.res.status).toBe(401);
    expect(JSON.parse(rotate.body)).toMatchObject({ error: "unauthorized: invalid or revoked token" });
    const row = await env.DB.prepare("SELECT t.token_hash AS hash FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE u.name = 'Racing Rory'").first<{ hash: string }>();
    expect(row?.hash).toBe("elsewhere");
  });

  it("a revoked bot key: its write changes nothing", async () => {
    const { token } = await signIn("Bot Owner Bea");
    const issued = await send("/api/bots", { method: "POST", headers: bearer(token, { "Content-Type": "application/json" }), body: JSON.stringify({ name: "scout" }) });
    expect(issued.res.status).toBe(201);
    const { bot: { id }, key } = JSON.parse(issued.body) as { bot: { id: string }; key: string };
    const idea = (title: string) => send("/api/ideas", { method: "POST", headers: bearer(key, { "Content-Type": "application/json" }), body: JSON.stringify({ title, body: "An idea a bot had about the studio." }) });
    expect((await idea("The first idea of a bot")).res.status).toBe(201);
    expect((await send(`/api/bots/${id}`, { method: "DELETE", headers: bearer(token) })).res.status).toBe(200);

    const late = await idea("An idea after revocation");
    expect(late.res.status).toBe(401);
    expect(JSON.parse(late.body)).toMatchObject({ error: "unauthorized: invalid or revoked token" });
    const titles = await env.DB.prepare("SELECT title FROM ideas WHERE title LIKE '%revocation%'").all();
    expect(titles.results).toEqual([]);
  });

  it("a signed-out session cookie: the 401 says the session expired", async () => {
    const { cookie } = await signIn("Leaving Lou");
    expect((await send("/api/me", { headers: { Cookie: cookie } })).res.status).toBe(200);
    const out = await send("/auth/logout", { method: "POST", headers: { Cookie: cookie, Origin: BASE } });
    expect(out.res.status).toBe(200);
    const me = await send("/api/me", { headers: { Cookie: cookie } });
    expect(me.res.status).toBe(401);
    expect(JSON.parse(me.body)).toMatchObject({ error: "unauthorized: session expired, sign in again" });
  });

  it("a route open to anyone answers a signed-out cookie it had cached with the 401: the speculative answer is never sent", async () => {
    const { cookie, token } = await signIn("Docs Reader Dora");
    expect((await send("/api/docs", { headers: { Cookie: cookie } })).body).toContain(`Your token: ${token}`);
    await send("/auth/logout", { method: "POST", headers: { Cookie: cookie, Origin: BASE } });
    const docs = await send("/api/docs", { headers: { Cookie: cookie } });
    expect(docs.res.status).toBe(401);
    expect(JSON.parse(docs.body)).toMatchObject({ error: "unauthorized: session expired, sign in again" });
    expect(docs.body).not.toContain(token);
  });
});
