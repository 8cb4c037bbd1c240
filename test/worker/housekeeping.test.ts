// The hourly housekeeping (worker/ops/prune.ts), run through the Worker's own scheduled handler: ended jobs
// past their retention (7 days), expired sessions, idempotency keys past 24 hours and OAuth registration counters of
// ended windows go; queued and running jobs,
// recent ones, live sessions and render history stay. A backlog larger than one batch goes in bounded statements,
// and a run whose budget is spent leaves the rest to the next.
import { createScheduledController, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index.ts";
import type { Env } from "../../worker/env.ts";
import { deleteBudget } from "../../worker/db/batched-delete.ts";
import { pruneExpired } from "../../worker/ops/prune.ts";
import { api, createProject, json, signIn } from "./helpers.ts";

const DAY = 86_400_000;

async function addJob(id: string, userId: string, status: string, finishedAgo: number | null, createdAgo = 10 * DAY) {
  const now = Date.now();
  await env.DB.prepare("INSERT INTO jobs (id, user_id, slug, kind, status, options, created_at, finished_at) VALUES (?, ?, 'house', 'snapshot', ?, '{}', ?, ?)")
    .bind(id, userId, status, now - createdAgo, finishedAgo === null ? null : now - finishedAgo)
    .run();
}

const jobIds = async (userId: string) =>
  (await env.DB.prepare("SELECT id FROM jobs WHERE user_id = ? ORDER BY id").bind(userId).all<{ id: string }>()).results.map((r) => r.id);

describe("hourly housekeeping", () => {
  it("deletes ended jobs past their retention, expired sessions and stale idempotency keys; keeps live work, live sessions and render history", async () => {
    const s = await signIn("House Keeper");
    await createProject(s.token, "house");
    const render = await json<{ id: string }>(await api(s.token, "POST", "/api/projects/house/render", { quality: "draft" }));
    expect((await api(s.token, "DELETE", "/api/projects/house/render")).status).toBe(200);

    await addJob("old-done", s.userId, "done", 8 * DAY);
    await addJob("old-failed", s.userId, "failed", 8 * DAY);
    await addJob("old-cancelled", s.userId, "cancelled", 8 * DAY);
    await addJob("recent-done", s.userId, "done", 6 * DAY);
    await addJob("old-running", s.userId, "running", null);
    await addJob("old-queued", s.userId, "queued", null);
    const now = Date.now();
    await env.DB.prepare("INSERT INTO sessions (id_hash, user_id, created_at, expires_at) VALUES ('expired-session', ?, ?, ?)").bind(s.userId, now - 40 * DAY, now - 1).run();
    await env.DB.prepare("INSERT INTO idempotency_keys (caller, key, fingerprint, created_at) VALUES (?, 'old', 'f', ?), (?, 'new', 'f', ?)")
      .bind(`user:${s.userId}`, now - 25 * 3_600_000, `user:${s.userId}`, now - 3_600_000)
      .run();

    await env.DB.prepare("INSERT INTO rate_limits (caller, window_start, count) VALUES ('oauth-register:address:192.0.2.1', ?, 5), ('oauth-register:address:192.0.2.2', ?, 5)")
      .bind(now - 2 * 3_600_000, now - (now % 3_600_000))
      .run();
    // OAuth refresh-token claims outlive no grant (30 days); client metadata fetch counters go with their window.
    await env.DB.prepare("INSERT INTO rate_limits (caller, window_start, count) VALUES ('oauth-refresh:old', ?, 1), ('oauth-refresh:new', ?, 1), ('oauth-metadata:user:old', ?, 3), ('oauth-metadata:user:new', ?, 3)")
      .bind(now - 31 * 86_400_000, now - 29 * 86_400_000, now - 2 * 3_600_000, now - (now % 3_600_000))
      .run();

    await worker.scheduled(createScheduledController({ cron: "17 * * * *" }), env as unknown as Env);

    expect(await jobIds(s.userId)).toEqual(["old-queued", "old-running", "recent-done", render.id].sort());
    const sessions = await env.DB.prepare("SELECT id_hash FROM sessions WHERE user_id = ?").bind(s.userId).all<{ id_hash: string }>();
    expect(sessions.results.map((r) => r.id_hash)).not.toContain("expired-session");
    expect(sessions.results.length).toBeGreaterThan(0); // the sign-in's own session is live
    const keys = await env.DB.prepare("SELECT key FROM idempotency_keys WHERE caller = ?").bind(`user:${s.userId}`).all<{ key: string }>();
    expect(keys.results.map((r) => r.key)).toEqual(["new"]);
    // An OAuth registration counter of an ended window goes; the current window's stays.
    const counters = await env.DB.prepare("SELECT caller FROM rate_limits WHERE caller LIKE 'oauth-register:address:192.0.2.%'").all<{ caller: string }>();
    expect(counters.results.map((r) => r.caller)).toEqual(["oauth-register:address:192.0.2.2"]);
    const oauthRows = await env.DB.prepare("SELECT caller FROM rate_limits WHERE caller LIKE 'oauth-refresh:%' OR caller LIKE 'oauth-metadata:%' ORDER BY caller").all<{ caller: string }>();
    expect(oauthRows.results.map((r) => r.caller)).toEqual(["oauth-metadata:user:new", "oauth-refresh:new"]);
    // The render's history row is not the queue's: it stays, and the API still lists the render.
    expect((await json<{ id: string; status: string }>(await api(s.token, "GET", "/api/projects/house/render"))).status).toBe("cancelled");
    expect((await env.DB.prepare("SELECT count(*) AS n FROM renders WHERE id = ?").bind(render.id).first<{ n: number }>())?.n).toBe(1);
  });
});

/** `env.DB` recording each statement's SQL and the rows it changed. */
function tracedDb(log: { sql: string; changes: number }[]): D1Database {
  const statement = (inner: D1PreparedStatement, sql: string): D1PreparedStatement =>
    new Proxy(inner, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => statement(target.bind(...values), sql);
        // run and all answer with meta.changes; raw (drizzle's `.returning()`) with the rows changed.
        if (prop === "run" || prop === "all") {
          return async () => {
            const result = await target[prop]();
            log.push({ sql, changes: result.meta.changes });
            return result;
          };
        }
        if (prop === "raw") {
          return async (options?: { columnNames?: boolean }) => {
            const rows: unknown[] = await target.raw(options as { columnNames?: false });
            log.push({ sql, changes: options?.columnNames ? rows.length - 1 : rows.length });
            return rows;
          };
        }
        const value: unknown = Reflect.get(target, prop);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => statement(target.prepare(sql), sql);
      const value: unknown = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** `count` ended jobs of `userId`, finished `finishedAgo` ms ago, in one statement. */
async function addEndedJobs(prefix: string, userId: string, count: number, finishedAgo: number) {
  const now = Date.now();
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO jobs (id, user_id, slug, kind, status, options, created_at, finished_at)
     SELECT ? || i, ?, 'bulk', 'snapshot', 'done', '{}', ?, ? FROM n`,
  )
    .bind(count, prefix, userId, now - finishedAgo - DAY, now - finishedAgo)
    .run();
}

const countJobs = async (userId: string, prefix: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ? AND id LIKE ?").bind(userId, `${prefix}%`).first<{ n: number }>())!.n;

describe("the prune in bounded batches", () => {
  it("deletes 2,500 ended jobs in statements of at most 1,000 rows each, keeping the recent ones", async () => {
    const s = await signIn("Batch Keeper");
    await addEndedJobs("old-", s.userId, 2500, 8 * DAY);
    await addEndedJobs("recent-", s.userId, 40, 1 * DAY);
    const log: { sql: string; changes: number }[] = [];

    await worker.scheduled(createScheduledController({ cron: "17 * * * *" }), { ...env, DB: tracedDb(log) } as unknown as Env);

    expect(await countJobs(s.userId, "old-")).toBe(0);
    expect(await countJobs(s.userId, "recent-")).toBe(40);
    const jobDeletes = log.filter((entry) => /^delete from "jobs"/i.test(entry.sql));
    expect(jobDeletes.length).toBeGreaterThanOrEqual(3);
    for (const entry of jobDeletes) expect(entry.changes).toBeLessThanOrEqual(1000);
    expect(jobDeletes.reduce((sum, entry) => sum + entry.changes, 0)).toBeGreaterThanOrEqual(2500);
  });

  it("stops when its budget is spent and the next run goes on where it stopped", async () => {
    const s = await signIn("Budget Keeper");
    await addEndedJobs("backlog-", s.userId, 250, 9 * DAY);
    const budget = () => deleteBudget({ batchRows: 100, statements: 2, ms: 60_000 });

    const first = await pruneExpired(env as unknown as Env, Date.now(), budget());
    expect(first).toMatchObject({ jobs: 200, more: true });
    expect(await countJobs(s.userId, "backlog-")).toBe(50);

    const second = await pruneExpired(env as unknown as Env, Date.now(), budget());
    expect(second.jobs).toBe(50);
    expect(await countJobs(s.userId, "backlog-")).toBe(0);
  });
});
