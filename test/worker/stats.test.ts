import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, BASE, createProject, json, signIn } from "./helpers.ts";

type Stats = Record<"pageViews" | "uniqueVisitors" | "returningVisitors" | "animationsCreated" | "animationsNow" | "rendersCompleted" | "users", number>;
const stats = async () => json<Stats>(await SELF.fetch(`${BASE}/api/stats`));
const view = (cookie?: string, page = "/") =>
  SELF.fetch(`${BASE}/api/stats/view?page=${encodeURIComponent(page)}`, { method: "POST", headers: cookie ? { Cookie: cookie } : {} });
const cookieOf = (res: Response) => (res.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";

describe("public stats", () => {
  it("counts a visitor once their signed cookie comes back, a page once per window; returning after 30 minutes", async () => {
    const before = await stats();
    const first = await view();
    expect(await first.json()).toEqual({ recorded: false });
    const cookie = cookieOf(first);
    expect(cookie).toMatch(/^studio_visitor=[A-Za-z0-9-]{16,}\.[A-Za-z0-9_-]{43}$/);
    expect(first.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);
    // Nothing counts until the cookie comes back.
    expect(await stats()).toEqual(before);
    expect(await (await view(cookie)).json()).toEqual({ recorded: true });
    let now = await stats();
    expect(now.pageViews).toBe(before.pageViews + 1);
    expect(now.uniqueVisitors).toBe(before.uniqueVisitors + 1);
    expect(now.returningVisitors).toBe(before.returningVisitors);
    // Another page counts; the same page again within 30 minutes does not.
    expect(await (await view(cookie, "/ideas")).json()).toEqual({ recorded: true });
    expect(await (await view(cookie, "/ideas")).json()).toEqual({ recorded: false });
    expect((await stats()).pageViews).toBe(before.pageViews + 2);

    // 29 minutes later is the same visit; 31 minutes later the visitor has returned.
    const id = cookie.split("=")[1]!.split(".")[0];
    await env.DB.prepare("UPDATE visitors SET last_seen = ? WHERE id = ?").bind(Date.now() - 29 * 60_000, id).run();
    await view(cookie);
    expect((await stats()).returningVisitors).toBe(before.returningVisitors);
    await env.DB.prepare("UPDATE visitors SET last_seen = ? WHERE id = ?").bind(Date.now() - 31 * 60_000, id).run();
    await view(cookie);
    now = await stats();
    expect(now.returningVisitors).toBe(before.returningVisitors + 1);
    expect(now.uniqueVisitors).toBe(before.uniqueVisitors + 1);
    // A page's window lapses after 30 minutes: then it counts again.
    await env.DB.prepare("UPDATE page_view_marks SET counted_at = ? WHERE visitor_id = ?").bind(Date.now() - 31 * 60_000, id).run();
    expect(await (await view(cookie, "/ideas")).json()).toEqual({ recorded: true });
  });

  it("stores no IP address or user agent anywhere", async () => {
    await SELF.fetch(`${BASE}/api/stats/view`, { method: "POST", headers: { "User-Agent": "UA-MARKER-1234", "CF-Connecting-IP": "203.0.113.77" } });
    const tables = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'ideas_fts%' AND name NOT LIKE '_cf%' AND name NOT LIKE 'sqlite%'").all<{ name: string }>();
    for (const { name } of tables.results) {
      const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
      const text = JSON.stringify(rows.results);
      expect(text, name).not.toContain("UA-MARKER-1234");
      expect(text, name).not.toContain("203.0.113.77");
    }
  });

  it("counts animations created (all time, each user and slug once) and now, and users", async () => {
    const before = await stats();
    const s = await signIn("stats-user");
    await createProject(s.token, "Counted One");
    await createProject(s.token, "Counted Two");
    await api(s.token, "DELETE", "/api/projects/counted-one");
    const after = await stats();
    expect(after.users).toBe(before.users + 1);
    expect(after.animationsCreated).toBe(before.animationsCreated + 2);
    expect(after.animationsNow).toBe(before.animationsNow + 1);
    expect(typeof after.rendersCompleted).toBe("number");
  });

  it("needs no token and answers the same with one", async () => {
    const s = await signIn("stats-token");
    const anon = await stats();
    const authed = await json<Stats>(await api(s.token, "GET", "/api/stats"));
    expect(Object.keys(authed).sort()).toEqual(Object.keys(anon).sort());
  });
});

describe("one client cannot inflate the counters", () => {
  it("a client that never returns the cookie, or forges one, counts nothing however often it calls", async () => {
    const before = await stats();
    const issued = cookieOf(await view());
    const genuineId = issued.split("=")[1]!.split(".")[0]!;
    const forged = [
      "", // no cookie: every call is handed a fresh one
      `studio_visitor=${crypto.randomUUID()}`, // an unsigned id nobody was ever given
      `studio_visitor=${crypto.randomUUID()}.${"A".repeat(43)}`, // a made-up signature
      `studio_visitor=${crypto.randomUUID()}.${issued.split(".")[1]}`, // a real signature on another id
      `studio_visitor=${genuineId}x.${issued.split(".")[1]}`, // an altered id
    ];
    for (const cookie of forged) {
      for (let i = 0; i < 10; i++) expect(await (await view(cookie || undefined, `/page-${i}`)).json()).toEqual({ recorded: false });
    }
    expect(await stats()).toEqual(before);
  });

  it("one genuine cookie: reloading adds one view per page and window, invented pages at most 20", async () => {
    const before = await stats();
    const cookie = cookieOf(await view());
    for (let i = 0; i < 30; i++) await view(cookie, "/");
    let now = await stats();
    expect(now.pageViews).toBe(before.pageViews + 1);
    expect(now.uniqueVisitors).toBe(before.uniqueVisitors + 1);
    const counted = [];
    for (let i = 0; i < 40; i++) counted.push(((await (await view(cookie, `/invented-${i}`)).json()) as { recorded: boolean }).recorded);
    now = await stats();
    expect(counted.filter(Boolean)).toHaveLength(19);
    expect(now.pageViews).toBe(before.pageViews + 20);
    expect(now.uniqueVisitors).toBe(before.uniqueVisitors + 1);
    expect(now.returningVisitors).toBe(before.returningVisitors);
    // Parallel calls cannot slip past the one-per-window rule either.
    const other = cookieOf(await view());
    const results = await Promise.all(Array.from({ length: 10 }, () => view(other, "/ideas").then((r) => r.json() as Promise<{ recorded: boolean }>)));
    expect(results.filter((r) => r.recorded)).toHaveLength(1);
  });

  it("a cookie from before signing is honoured only for a visitor already on record, and comes back signed", async () => {
    const id = crypto.randomUUID();
    await env.DB.prepare("INSERT INTO visitors (id, first_seen, last_seen, visits) VALUES (?, ?, ?, 1)").bind(id, Date.now(), Date.now()).run();
    const before = await stats();
    const res = await view(`studio_visitor=${id}`, "/research");
    expect(await res.json()).toEqual({ recorded: true });
    expect(cookieOf(res)).toMatch(new RegExp(`^studio_visitor=${id}\\.[A-Za-z0-9_-]{43}$`));
    const now = await stats();
    expect(now.uniqueVisitors).toBe(before.uniqueVisitors);
    expect(now.pageViews).toBe(before.pageViews + 1);
  });

  it("deleting and re-creating a project in a loop adds one animation, not one per loop", async () => {
    const s = await signIn("stats-looper");
    const before = await stats();
    for (let i = 0; i < 5; i++) {
      await createProject(s.token, "Loop Me");
      expect((await api(s.token, "DELETE", "/api/projects/loop-me")).status).toBe(200);
    }
    const after = await stats();
    expect(after.animationsCreated).toBe(before.animationsCreated + 1);
    expect(after.animationsNow).toBe(before.animationsNow);
  });
});
