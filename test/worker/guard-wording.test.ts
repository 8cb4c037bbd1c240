// A failed D1 batch says which statement failed only in its error's words, SQLite's and D1's, which may change with
// either. The credential gate (worker/auth/request-gate.ts) never reads them (issue 33, point 6): whether a cached
// caller's credential is still valid comes from a value, the primary's answer to the credential lookup. Played here
// with the Worker's D1 binding rewording every error it throws: a revoked credential is still the 401 (nothing
// written) whatever its batch's error says, marker words of the board's guards included; and a valid caller's write
// refused by its own check is still that refusal, never a 401, even when its error reads as the credential guard's.
// Nor do they decide a refusal (worker/db/sql-guard.ts' whichGuardRefused): in other words, or cut short mid-marker,
// a missing idea is still the 404, another's idea the 403, a duplicate the 409 with the existing idea, a write past
// the rate limit the 429, a spent refresh token still revokes its grant, and a registration past a limit is the 429.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/auth/tokens.ts";
import type { Env } from "../../worker/env.ts";
import worker from "../../worker/index.ts";
import { BASE, signIn } from "./helpers.ts";
import { setEnv } from "./idea-helpers.ts";
import { connect, mcp, send as oauthSend, signInPerson, REDIRECT, type Tokens } from "./oauth-helpers.ts";
import { rewordedD1, type Reword } from "./reworded-d1.ts";

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
const GUARD_WORDS = "JSON path error near 'studio_guard[idea_missing]' studio_guard[comment_missing] studio_guard[idea_not_author]";
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

// Today's error, in other words; and cut short a few characters into a guard's marker (or at 16 without one).
const REWORDINGS: [string, Reword][] = [
  ["other words", () => "D1_ERROR: something else went wrong"],
  ["cut short", (m) => m.slice(0, Math.max(0, m.indexOf("studio_guard")) + 16)],
];

const errorOf = (body: string) => JSON.parse(body) as { error: string; code?: string; idea?: { id: number } };

describe("a refusal in other words", () => {
  it("is still the board's 404, 403, 400 and 409 (with the existing idea), and writes nothing", async () => {
    const { token: author } = await signIn("Reworded Ruth");
    const { token: other } = await signIn("Reworded Otis");
    const original = { title: "Burned-in subtitles on every render", body: "Styled captions at export time." };
    const posted = await postJson("/api/ideas", author, original);
    expect(posted.status, posted.body).toBe(201);
    const ideaId = errorOf(posted.body).idea!.id;
    for (const [name, reword] of REWORDINGS) {
      const missing = await postJson("/api/ideas/999999/comments", other, { body: "Nowhere." }, reword);
      expect(missing.status, `${name}: ${missing.body}`).toBe(404);
      expect(errorOf(missing.body).error).toBe("no such idea");
      const patch = { method: "PATCH", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ title: "Taken over" }) };
      const hijack = await call(`/api/ideas/${ideaId}`, other, patch, reword);
      expect(hijack.status, `${name}: ${hijack.body}`).toBe(403);
      const nowhere = await postJson("/api/ideas", other, { title: "Filed nowhere at all", body: "x", group: "no-such-group", force: true }, reword);
      expect(nowhere.status, `${name}: ${nowhere.body}`).toBe(400);
      expect(errorOf(nowhere.body).error).toMatch(/^invalid group/);
      const duplicate = await postJson("/api/ideas", other, original, reword);
      expect(duplicate.status, `${name}: ${duplicate.body}`).toBe(409);
      expect(errorOf(duplicate.body)).toMatchObject({ code: "duplicate_idea", idea: { id: ideaId } });
    }
    const stored = await env.DB.prepare("SELECT title FROM ideas WHERE id = ?1").bind(ideaId).first<{ title: string }>();
    expect(stored?.title).toBe(original.title);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ideas WHERE title = 'Filed nowhere at all'").first<{ n: number }>()).toEqual({ n: 0 });
  });

  it("is still the 429 past the board's rate limit, and moves no counter", async () => {
    const { token, userId } = await signIn("Reworded Rita");
    const restore = setEnv({ IDEA_WRITE_LIMIT: "2", IDEA_WRITE_WINDOW_SECONDS: "600" });
    try {
      const posted = await postJson("/api/ideas", token, { title: "Keyframe easing presets", body: "A few named curves." });
      expect(posted.status, posted.body).toBe(201);
      const ideaId = errorOf(posted.body).idea!.id;
      expect((await postJson(`/api/ideas/${ideaId}/comments`, token, { body: "Second write." })).status).toBe(201);
      for (const [name, reword] of REWORDINGS) {
        const limited = await postJson(`/api/ideas/${ideaId}/comments`, token, { body: "One too many." }, reword);
        expect(limited.status, `${name}: ${limited.body}`).toBe(429);
        expect(errorOf(limited.body).error).toMatch(/^rate limited: at most 2 writes per 600 s/);
      }
      expect(await commentCount(ideaId)).toBe(1);
      const counter = await env.DB.prepare("SELECT count FROM rate_limits WHERE caller = ?1").bind(`user:${userId}`).first<{ count: number }>();
      expect(counter?.count).toBe(2);
    } finally {
      restore();
    }
  });

  it("still refuses a refresh token used twice, and revokes its grant", async () => {
    for (const [name, reword] of REWORDINGS) {
      const person = await signInPerson(`Reworded Ray ${name}`);
      const first = await connect(person, ["projects:read"]);
      const refresh = (refreshToken: string) =>
        oauthSend(
          "/oauth/token",
          { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: first.clientId }).toString() },
          rewordedD1(env.DB, reword),
        );
      const rotated = await refresh(first.refresh_token);
      expect(rotated.status, name).toBe(200);
      const second = (await rotated.json()) as Tokens;
      const replay = await refresh(first.refresh_token);
      expect(replay.status, name).toBe(400);
      expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
      expect((await mcp(second.access_token, "tools/list")).status, name).not.toBe(200);
    }
  });

  it("is not a failure that is no refusal: a refresh whose claim D1 never answered revokes nothing, and works again", async () => {
    const person = await signInPerson("Unanswered Una");
    const first = await connect(person, ["projects:read"]);
    const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: first.clientId }).toString();
    const refresh = (db?: D1Database) => oauthSend("/oauth/token", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body }, db);
    // The claim (worker/oauth/refresh-claims.ts: an insert keyed by the token's hash) is lost on its way to D1.
    const claimLost = (sql: string, values: unknown[]) => /^insert/i.test(sql) && values.some((v) => typeof v === "string" && v.startsWith("oauth-refresh:"));
    const failed = await refresh(rewordedD1(env.DB, (m) => m, claimLost));
    expect(failed.status).toBeGreaterThanOrEqual(500);
    // Not taken for a replay: the grant stands, its access token works, and the same refresh token is taken.
    expect((await mcp(first.access_token, "tools/list")).status).toBe(200);
    expect((await refresh()).status).toBe(200);
  });

  it("is still the 429 past each registration limit: an address's, a network's, the count of networks'", async () => {
    await env.DB.prepare("DELETE FROM rate_limits WHERE caller LIKE 'oauth-register:%'").run();
    const limits = {
      OAUTH_REGISTRATIONS_PER_ADDRESS: "2",
      OAUTH_REGISTRATIONS_PER_NETWORK: "3",
      OAUTH_REGISTRATIONS_PER_SITE: "8",
      OAUTH_REGISTRATION_NETWORKS: "2",
      OAUTH_REGISTRATION_WINDOW_SECONDS: "3600",
    };
    const [, reword] = REWORDINGS[0]!;
    const register = async (address: string) => {
      const body = JSON.stringify({ client_name: "Reworded Agent", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
      const res = await oauthSend("/oauth/register", { method: "POST", headers: { "Content-Type": "application/json", "CF-Connecting-IP": address }, body }, rewordedD1(env.DB, reword), limits);
      return { status: res.status, error: res.status === 201 ? "" : ((await res.json()) as { error: string }).error };
    };
    for (let i = 0; i < 2; i++) expect((await register("198.51.100.1")).status).toBe(201);
    expect(await register("198.51.100.1")).toMatchObject({ status: 429, error: expect.stringContaining("registrations from one address per 3600 s") });
    expect((await register("198.51.100.2")).status).toBe(201);
    expect(await register("198.51.100.3")).toMatchObject({ status: 429, error: expect.stringContaining("registrations from one IPv4 /24 per 3600 s") });
    expect((await register("192.0.2.1")).status).toBe(201);
    expect(await register("203.0.113.1")).toMatchObject({ status: 429, error: expect.stringContaining("from at most 2 networks per 3600 s") });
    const counts = await env.DB.prepare("SELECT caller, count FROM rate_limits WHERE caller LIKE 'oauth-register:%' ORDER BY caller").all<{ caller: string; count: number }>();
    expect(Object.fromEntries(counts.results.map((r) => [r.caller, r.count]))).toEqual({
      "oauth-register:address:192.0.2.1/32": 1,
      "oauth-register:address:198.51.100.1/32": 2,
      "oauth-register:address:198.51.100.2/32": 1,
      "oauth-register:network:192.0.2.0/24": 1,
      "oauth-register:network:198.51.100.0/24": 3,
      "oauth-register:networks": 2,
    });
  });
});
