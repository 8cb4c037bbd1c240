// Benchmark (not a test): the cost of a claim's fair order on a large queue: the query as the Worker builds it
// (worker/renders/farm/claim-order.ts) against two earlier orders, run in turn on node:sqlite with the schema the
// migrations make: before migration 0010 (no last-served key, not fair to a user whose renders ran one at a time)
// and 0010's (the keys worked out per queued job).
//   node bench/claim-order.ts [--analyze]
// Each of 50 users has 2000 ended render-work jobs (started over the last week) and 20 queued segments; two users
// have a running segment. --analyze runs ANALYZE first (SQLite then plans with statistics). Printed per order: the
// median and p90 of 20 runs, and the job it took (the same for 0010's order and today's).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { nextJobQuery } from "../worker/renders/farm/claim-order.ts";
const USERS = 50;
const ENDED = 2000;
const QUEUED = 20;
const sqlite = new DatabaseSync(":memory:");
sqlite.exec("PRAGMA foreign_keys = OFF");
const dir = join(import.meta.dirname, "../migrations");
for (const file of readdirSync(dir).filter((f) => f.endsWith(".sql")).sort()) {
  for (const statement of readFileSync(join(dir, file), "utf8").split("--> statement-breakpoint")) if (statement.trim()) sqlite.exec(statement);
}

const insert = sqlite.prepare("INSERT INTO jobs (id, user_id, slug, kind, status, options, node_id, attempts, created_at, started_at, finished_at) VALUES (?, ?, 'p', ?, ?, '{}', ?, 1, ?, ?, ?)");
const now = Date.now();
sqlite.exec("BEGIN");
for (let u = 0; u < USERS; u++) {
  for (let j = 0; j < ENDED; j++) {
    const at = now - 7 * 86_400_000 + Math.floor(Math.random() * 7 * 86_400_000);
    insert.run(`e-${u}-${j}`, `user-${u}`, ["render", "segment", "join"][j % 3]!, "done", "node", at - 1000, at, at + 60_000);
  }
  for (let j = 0; j < QUEUED; j++) insert.run(`q-${u}-${j}`, `user-${u}`, "segment", "queued", null, now - Math.floor(Math.random() * 600_000), null, null);
  if (u < 2) insert.run(`r-${u}`, `user-${u}`, "segment", "running", "node", now - 60_000, now - 30_000, null);
}
sqlite.exec("COMMIT");
if (process.argv.includes("--analyze")) sqlite.exec("ANALYZE");
const RW = "('render', 'segment', 'join')";
const tier = `CASE "jobs"."kind" WHEN 'snapshot' THEN 0 WHEN 'check' THEN 0 WHEN 'preview' THEN 1 ELSE 2 END`;
const busy = `(SELECT count(*) FROM jobs AS busy WHERE busy.user_id = "jobs"."user_id" AND busy.status = 'running' AND busy.kind IN ${RW})`;
const served = `coalesce((SELECT max(served.started_at) FROM jobs AS served WHERE served.user_id = "jobs"."user_id" AND served.kind IN ${RW}), 0)`;
const where = `WHERE "jobs"."status" = 'queued' AND "jobs"."kind" IN ('render', 'segment', 'join')`;
const built = new SQLiteAsyncDialect().sqlToQuery(nextJobQuery(["render", "segment", "join"]));
const queries: Record<string, [string, unknown[]]> = {
  "before 0010 (no last-served key)": [`SELECT id FROM jobs ${where} ORDER BY ${tier}, ${busy}, "jobs"."created_at" LIMIT 1`, []],
  "0010 (per queued job)": [`SELECT id FROM jobs ${where} ORDER BY ${tier}, ${busy}, ${served}, "jobs"."created_at" LIMIT 1`, []],
  "now (claim-order.ts: per waiting user)": [built.sql, built.params],
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(queries).map((k) => [k, []]));
const picks: Record<string, unknown> = {};
for (let i = 0; i < 21; i++) {
  for (const [name, [q, p]] of Object.entries(queries)) {
    const st = sqlite.prepare(q);
    const t = performance.now();
    picks[name] = st.get(...(p as (string | number)[]));
    if (i > 0) times[name]!.push(performance.now() - t);
  }
}
for (const [name, ts] of Object.entries(times)) {
  ts.sort((a, b) => a - b);
  console.log(`${name}: median ${ts[10]!.toFixed(1)} ms, p90 ${ts[18]!.toFixed(1)} ms, took ${JSON.stringify(picks[name])}`);
}
