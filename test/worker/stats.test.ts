import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, BASE, createProject, json, signIn } from "./helpers.ts";

type Stats = Record<"pageViews" | "uniqueVisitors" | "returningVisitors" | "animationsCreated" | "animationsNow" | "rendersCompleted" | "users", number>;
const stats = async () => json<Stats>(await SELF.fetch(`${BASE}/api/stats`));
const view = (cookie?: string) =>
  SELF.fetch(`${BASE}/api/stats/view`, { method: "POST", headers: cookie ? { Cookie: cookie } : {} });

describe("public stats", () => {
  it("counts page views and visitors with an anonymous first-party cookie; returning after 30 minutes", async () => {
    const before = await stats();
    const first = await view();
    const cookie = (first.headers.get("Set-Cookie") ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/^studio_visitor=[A-Za-z0-9-]{16,}$/);
    expect(first.headers.get("Set-Cookie")).toMatch(/HttpOnly/i);
    await view(cookie);
    let now = await stats();
    expect(now.pageViews).toBe(before.pageViews + 2);
    expect(now.uniqueVisitors).toBe(before.uniqueVisitors + 1);
    expect(now.returningVisitors).toBe(before.returningVisitors);

    // 29 minutes later is the same visit; 31 minutes later the visitor has returned.
    const id = cookie.split("=")[1];
    await env.DB.prepare("UPDATE visitors SET last_seen = ? WHERE id = ?").bind(Date.now() - 29 * 60_000, id).run();
    await view(cookie);
    expect((await stats()).returningVisitors).toBe(before.returningVisitors);
    await env.DB.prepare("UPDATE visitors SET last_seen = ? WHERE id = ?").bind(Date.now() - 31 * 60_000, id).run();
    await view(cookie);
    now = await stats();
    expect(now.returningVisitors).toBe(before.returningVisitors + 1);
    expect(now.uniqueVisitors).toBe(before.uniqueVisitors + 1);
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

  it("counts animations created (all time) and now, and users", async () => {
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
