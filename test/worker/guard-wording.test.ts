// A failed D1 batch says which statement failed only in its error's words, SQLite's and D1's, which may change with
// either. The credential gate (worker/auth/request-gate.ts) never reads them (issue 33, point 6): whether a cached
// caller's credential is still valid comes from a value, the primary's answer to the credential lookup. Played here
// with the Worker's D1 binding rewording every error it throws: a revoked credential is still the 401 (nothing
// written) whatever its batch's error says, marker words of the board's guards included; and a valid caller's write
// refused by its own check is still that refusal, never a 401, even when its error reads as the credential guard's.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/auth/tokens.ts";
import type { Env } from "../../worker/env.ts";
import worker from "../../worker/index.ts";
import { BASE, signIn } from "./helpers.ts";

type Reword = (message: string) => string;

/** `db` as a binding (a plain object, as a wrapped D1 is recognised) whose every failure is thrown in other words. */
function rewordedD1(db: D1Database, reword: Reword): D1Database {
  const reals = new WeakMap<object, D1PreparedStatement>();
  const fail = (err: unknown): never => {
    throw new Error(reword(err instanceof Error ? err.message : String(err)));
  };
  const real = (s: D1PreparedStatement) => reals.get(s) ?? s;
  const statement = (s: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => statement(s.bind(...values)),
      first: (column?: string) => (column === undefined ? s.first() : s.first(column)).catch(fail),
      all: () => s.all().catch(fail),
      run: () => s.run().catch(fail),
      raw: (options?: { columnNames?: boolean }) => (options?.columnNames ? s.raw({ columnNames: true }) : s.raw()).catch(fail),
    } as unknown as D1PreparedStatement;
    reals.set(wrapped, s);
    return wrapped;
  };
  const session = (s: D1DatabaseSession) =>
    ({
      prepare: (sql: string) => statement(s.prepare(sql)),
      batch: (list: D1PreparedStatement[]) => s.batch(list.map(real)).catch(fail),
      getBookmark: () => s.getBookmark(),
    }) as unknown as D1DatabaseSession;
  return {
    prepare: (sql: string) => statement(db.prepare(sql)),
    batch: (list: D1PreparedStatement[]) => db.batch(list.map(real)).catch(fail),
    exec: (sql: string) => db.exec(sql).catch(fail),
    dump: () => db.dump(),
    withSession: (constraint?: string) => session(db.withSession(constraint as D1SessionConstraint)),
  } as unknown as D1Database;
}

/** One request to the Worker, its D1 binding rewording errors with `reword`; the answer's status and body. */
async function call(path: string, token: string, init: RequestInit, reword: Reword = (m) => m) {
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}` };
  if (typeof init.body === "string") headers["Content-Length"] = String(new TextEncoder().encode(init.body).length);
  const request = new Request(`${BASE}${path}`, { ...init, headers }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch!(request, { ...(env as unknown as Env), DB: rewordedD1(env.DB, reword) }, ctx);
  const body = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, body };
}

const postJson = (path: string, token: string, value: unknown, reword?: Reword) =>
  call(path, token, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(value) }, reword);

// Every marker word the board's guards fail with (worker/ideas/board-guards.ts), and the credential guard's words.
const GUARD_WORDS = "JSON path error near 'studio_guard_idea_missing' studio_guard_comment_missing studio_guard_idea_not_author";
const CREDENTIAL_WORDS = "D1_ERROR: malformed JSON: SQLITE_ERROR";

async function commentCount(ideaId: number): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM idea_comments WHERE idea_id = ?1").bind(ideaId).first<{ n: number }>())!.n;
}

describe("a failed batch's words", () => {
  it("do not decide a revoked credential's fate: the 401, nothing written, whatever the error says", async () => {
    const { token } = await signIn("Worded Wes");
    const posted = await postJson("/api/ideas", token, { title: "Errors in other words", body: "Reword them." });
    expect(posted.status, posted.body).toBe(201);
    const ideaId = (JSON.parse(posted.body) as { idea: { id: number } }).idea.id;
    expect((await call("/api/me", token, {})).status).toBe(200); // the isolate has the caller cached

    // Revoked behind the isolate's back (another isolate rotated it): the cache still names the caller.
    await env.DB.prepare("UPDATE api_tokens SET token_hash = 'rotated-elsewhere' WHERE token_hash = ?1").bind(await sha256Hex(token)).run();
    for (const reword of [() => `D1_ERROR: ${GUARD_WORDS}`, () => "D1_ERROR: something else went wrong", (m: string) => m]) {
      const late = await postJson(`/api/ideas/${ideaId}/comments`, token, { body: "After revocation." }, reword);
      expect(late.status, late.body).toBe(401);
      expect(JSON.parse(late.body)).toMatchObject({ error: "unauthorized: invalid or revoked token" });
    }
    expect(await commentCount(ideaId)).toBe(0);
  });

  it("do not turn a valid caller's refused write into a 401, even in the credential guard's own words", async () => {
    const { token } = await signIn("Worded Wanda");
    expect((await call("/api/me", token, {})).status).toBe(200); // the isolate has the caller cached
    const asCredential = (m: string) => `${CREDENTIAL_WORDS} ${m}`;
    const missing = await postJson("/api/ideas/999999/comments", token, { body: "Nowhere." }, asCredential);
    expect(missing.status, missing.body).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ error: "no such idea" });
    // Still the caller: the next request is answered, not refused.
    expect((await call("/api/me", token, {}, asCredential)).status).toBe(200);
  });
});
