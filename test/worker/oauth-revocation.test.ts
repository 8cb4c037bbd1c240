// Revocation and refresh-token rotation of OAuth grants (worker/oauth/revoked-grants.ts, refresh-claims.ts,
// token-endpoint.ts): a refresh token works once, and a second use (a replay, or two requests racing with one
// token) revokes the whole grant; refreshes racing a revocation never leave an access token that works once the
// revocation has returned (the library alone let a refresh write the grant and a fresh token back after the
// revocation had deleted them, and that token lived its full hour).
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { D1Trace } from "../../bench/d1-trace/trace-d1.ts";
import { connect, mcp, send, signInPerson, tokenRequest, type Tokens } from "./oauth-helpers.ts";

const refresh = (refreshToken: string, clientId: string) => tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId });

const works = async (accessToken: string) => (await mcp(accessToken, "tools/list")).status === 200;

async function appsOf(token: string): Promise<string[]> {
  const res = await send("/api/me/apps", { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { apps: { id: string }[] }).apps.map((app) => app.id);
}

describe("refresh-token rotation", () => {
  it("replaying a rotated refresh token revokes the whole grant: every token of it stops working", async () => {
    const person = await signInPerson("Replay Rory");
    const first = await connect(person, ["projects:read"]);
    const rotated = await refresh(first.refresh_token, first.clientId);
    expect(rotated.status).toBe(200);
    const second = (await rotated.json()) as Tokens;
    expect(await works(second.access_token)).toBe(true);

    // The old refresh token again (the library alone accepted it once more, as a grace).
    const replay = await refresh(first.refresh_token, first.clientId);
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
    expect(await works(second.access_token)).toBe(false);
    expect(await works(first.access_token)).toBe(false);
    expect((await refresh(second.refresh_token, first.clientId)).status).toBe(400);
    expect(await appsOf(person.token)).toEqual([]);
  });

  it("two refreshes racing with one refresh token: the grant is revoked and no token either got works", async () => {
    for (let run = 0; run < 3; run++) {
      const person = await signInPerson(`Twin ${run}`);
      const tokens = await connect(person, ["projects:read"]);
      const answers = await Promise.all([refresh(tokens.refresh_token, tokens.clientId), refresh(tokens.refresh_token, tokens.clientId)]);
      expect(answers.filter((a) => a.status === 200).length, `run ${run}`).toBeLessThanOrEqual(1);
      const issued = await Promise.all(answers.filter((a) => a.status === 200).map(async (a) => (await a.json()) as Tokens));
      for (const got of issued) {
        expect(await works(got.access_token), `run ${run}`).toBe(false);
        expect((await refresh(got.refresh_token, tokens.clientId)).status, `run ${run}`).toBe(400);
      }
      expect(await works(tokens.access_token), `run ${run}`).toBe(false);
    }
  }, 30_000);

  it("a made-up refresh token naming someone's grant, sent twice at once, revokes nothing", async () => {
    const person = await signInPerson("Forged Fern");
    const tokens = await connect(person, ["projects:read"]);
    const [userId, grantId] = tokens.access_token.split(":");
    const forged = `${userId}:${grantId}:${"x".repeat(32)}`;
    const answers = await Promise.all([refresh(forged, tokens.clientId), refresh(forged, tokens.clientId), refresh(forged, tokens.clientId)]);
    for (const a of answers) expect(a.status).toBe(400);
    expect((await refresh(forged, tokens.clientId)).status).toBe(400);
    expect(await works(tokens.access_token)).toBe(true);
    expect((await refresh(tokens.refresh_token, tokens.clientId)).status).toBe(200);
  });

  it("a refresh token used once, then the new one, keeps working (rotation is not revocation)", async () => {
    const person = await signInPerson("Steady Stan");
    let tokens: Tokens & { clientId: string } = await connect(person, ["projects:read"]);
    for (let i = 0; i < 4; i++) {
      const res = await refresh(tokens.refresh_token, tokens.clientId);
      expect(res.status).toBe(200);
      tokens = { ...((await res.json()) as Tokens), clientId: tokens.clientId };
      expect(await works(tokens.access_token)).toBe(true);
    }
    expect(await appsOf(person.token)).toHaveLength(1);
  });
});

describe("the cost of a refresh", () => {
  it("is one D1 round trip to the primary: the claim of the refresh token", async () => {
    const person = await signInPerson("Costly Cal");
    const tokens = await connect(person, ["projects:read"]);
    const trace = new D1Trace(env.DB, { primaryMs: 0, replicaMs: 0 });
    const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: tokens.clientId }).toString();
    const res = await send("/oauth/token", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body }, trace.db);
    expect(res.status).toBe(200);
    expect(trace.counts.primaryWaves).toBe(1);
  });
});

describe("revocation racing refreshes", () => {
  /** Refreshes one grant over and over until refused; every access token it was given. */
  async function refreshLoop(tokens: Tokens & { clientId: string }, minted: string[], started: () => void): Promise<void> {
    let refreshToken = tokens.refresh_token;
    for (let i = 0; i < 200; i++) {
      const res = await refresh(refreshToken, tokens.clientId);
      if (res.status !== 200) return;
      const got = (await res.json()) as Tokens;
      minted.push(got.access_token);
      refreshToken = got.refresh_token;
      started();
    }
  }

  it("no access token works once the revocation returned (8 refresh loops around a token rotation, 6 runs)", async () => {
    for (let run = 0; run < 6; run++) {
      const person = await signInPerson(`Racer ${run}`);
      const grants = await Promise.all(Array.from({ length: 8 }, (_, i) => connect(person, ["projects:read"], `Racer App ${i}`)));
      const minted: string[] = grants.map((g) => g.access_token);
      let refreshed = 0;
      let signal!: () => void;
      const someRefreshed = new Promise<void>((resolve) => (signal = resolve));
      const loops = grants.map((g) => refreshLoop(g, minted, () => ++refreshed >= 8 && signal()));
      await someRefreshed;
      // Rotating the personal token revokes every grant of the person while the loops go on refreshing.
      const rotated = await send("/api/me/token/rotate", { method: "POST", headers: { Authorization: `Bearer ${person.token}` } });
      expect(rotated.status).toBe(200);
      await Promise.all(loops);
      const working = [];
      for (const token of minted) if (await works(token)) working.push(token);
      expect(working, `run ${run}: ${working.length} of ${minted.length} access tokens still work`).toEqual([]);
    }
  }, 120_000);

  it("disconnecting one app while its refreshes race leaves no working token of it; the record outlives the grant", async () => {
    for (let run = 0; run < 6; run++) {
      const person = await signInPerson(`Disconnect ${run}`);
      const tokens = await connect(person, ["projects:read"]);
      const [grantId] = await appsOf(person.token);
      const minted = [tokens.access_token];
      let signal!: () => void;
      const started = new Promise<void>((resolve) => (signal = resolve));
      const loops = [refreshLoop(tokens, minted, signal)];
      await started;
      const revoked = await send(`/api/me/apps/${grantId}`, { method: "DELETE", headers: { Authorization: `Bearer ${person.token}` } });
      expect(revoked.status).toBe(200);
      await Promise.all(loops);
      for (const token of minted) expect(await works(token), `run ${run}`).toBe(false);
      expect(await env.OAUTH_KV.get(`revoked-grant:${grantId}`)).not.toBeNull();
    }
  }, 60_000);
});
