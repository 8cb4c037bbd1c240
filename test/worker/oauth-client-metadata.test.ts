// Client ID metadata documents (worker/oauth/client-metadata-url.ts, consent.ts, token-endpoint.ts): a client_id
// that is an https URL makes the Worker fetch it, so that happens only for a signed-in person (an anonymous
// authorization request is sent to sign in with nothing fetched), at most so many times per person per window,
// at the token endpoint only for a grant a person approved for that client, and never from the studio's own
// origins (a project's shared JSON file on the content origin would otherwise read as published by the studio).
// The fake outbound service (fake-oauth-providers.ts) counts what the Worker fetched; each test uses its own URLs.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { ownOriginProblem } from "../../worker/oauth/client-metadata-url.ts";
import { authorizePath, openConsent, pkce, postConsent, REDIRECT, send, signInPerson, tokenRequest } from "./oauth-helpers.ts";

/** How many times the Worker fetched this URL (the fake outbound service's log). */
async function fetched(url: string): Promise<number> {
  const where = `GET ${new URL(url).host}${new URL(url).pathname}`;
  const res = await fetch(`https://outbound-log.test/count?where=${encodeURIComponent(where)}`);
  return ((await res.json()) as { count: number }).count;
}

const clientUrl = (host = "mcp-client.test") => `https://${host}/oauth/${crypto.randomUUID()}.json`;

describe("fetching a client's metadata document", () => {
  it("an anonymous authorization request is sent to sign in first, and nothing is fetched", async () => {
    const clientId = clientUrl();
    const { challenge } = await pkce();
    for (let i = 0; i < 5; i++) {
      const res = await send(authorizePath(clientId, challenge));
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toContain("#sign-in");
    }
    expect(await fetched(clientId)).toBe(0);
    // Signed in, the same request fetches the document and shows its consent page.
    const person = await signInPerson("Meta Mia");
    const form = await openConsent(person, authorizePath(clientId, challenge));
    expect(form.html).toContain("Metadata Client");
    expect(await fetched(clientId)).toBeGreaterThanOrEqual(1);
  });

  it("the token endpoint fetches nothing for a metadata URL no approved grant names", async () => {
    const clientId = clientUrl();
    const attempts: Record<string, string>[] = [
      { grant_type: "authorization_code", code: "someone:grant123:abcdefghijklmnopqrstuvwxyz", redirect_uri: REDIRECT, client_id: clientId, code_verifier: "x".repeat(43) },
      { grant_type: "refresh_token", refresh_token: "someone:grant123:abcdefghijklmnopqrstuvwxyz", client_id: clientId },
      { grant_type: "client_credentials", client_id: clientId },
      { token: "whatever", client_id: clientId },
    ];
    for (const fields of attempts) {
      const res = await tokenRequest(fields);
      expect(res.status, JSON.stringify(fields)).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe("invalid_client");
    }
    const basic = await send("/oauth/token", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${btoa(`${encodeURIComponent(clientId)}:secret`)}` },
      body: new URLSearchParams({ grant_type: "client_credentials" }).toString(),
    });
    expect(basic.status).toBe(401);
    expect(await fetched(clientId)).toBe(0);
  });

  it("a metadata client that a person approved completes its code exchange and refresh", async () => {
    const person = await signInPerson("Meta Max");
    const clientId = clientUrl();
    const { verifier, challenge } = await pkce();
    const form = await openConsent(person, authorizePath(clientId, challenge));
    const approved = await postConsent(form, { decision: "approve", scope: "ideas" });
    const code = new URL(approved.headers.get("Location")!).searchParams.get("code")!;
    const res = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    expect(res.status).toBe(200);
    const { refresh_token } = (await res.json()) as { refresh_token: string };
    expect((await tokenRequest({ grant_type: "refresh_token", refresh_token, client_id: clientId })).status).toBe(200);
    // The same code's grant does not open the endpoint to another metadata URL.
    const other = clientUrl();
    expect((await tokenRequest({ grant_type: "refresh_token", refresh_token, client_id: other })).status).toBe(401);
    expect(await fetched(other)).toBe(0);
  });

  it("never fetches from the studio's own origins or their subdomains", async () => {
    const person = await signInPerson("Own Olga");
    const { challenge } = await pkce();
    for (const host of ["content.studio.test", "share.content.studio.test", "studio.test", "evil.studio.test"]) {
      const clientId = clientUrl(host);
      for (const cookie of [person.cookie, ""]) {
        const res = await send(authorizePath(clientId, challenge), { headers: cookie ? { Cookie: cookie } : {} });
        expect(res.status, host).toBe(400);
        const html = await res.text();
        expect(html, host).toContain("own");
        expect(html, host).not.toContain("Studio Official Client");
        expect(html, host).not.toContain('name="handle"');
      }
      const token = await tokenRequest({ grant_type: "refresh_token", refresh_token: "a:b:abcdefghijklmnopqrstuvwxyz", client_id: clientId });
      expect(token.status, host).toBe(401);
      const body = (await token.json()) as { error: string; error_description: string };
      expect(body.error).toBe("invalid_client");
      expect(body.error_description).toContain("own");
      expect(await fetched(clientId), host).toBe(0);
    }
  });

  it("counts each person's metadata fetches: past the limit a 429 page with Retry-After and no fetch; others go on", async () => {
    const settings = { OAUTH_CLIENT_METADATA_FETCHES_PER_USER: "3", OAUTH_CLIENT_METADATA_WINDOW_SECONDS: "3600" };
    const busy = await signInPerson(`Busy ${crypto.randomUUID().slice(0, 6)}`);
    const { challenge } = await pkce();
    for (let i = 0; i < 3; i++) expect((await send(authorizePath(clientUrl(), challenge), { headers: { Cookie: busy.cookie } }, undefined, settings)).status).toBe(200);
    const clientId = clientUrl();
    const refused = await send(authorizePath(clientId, challenge), { headers: { Cookie: busy.cookie } }, undefined, settings);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await refused.text()).toContain("Try again in");
    expect(await fetched(clientId)).toBe(0);
    // Another person is not limited by the first.
    const other = await signInPerson(`Calm ${crypto.randomUUID().slice(0, 6)}`);
    expect((await send(authorizePath(clientId, challenge), { headers: { Cookie: other.cookie } }, undefined, settings)).status).toBe(200);
    expect(await fetched(clientId)).toBeGreaterThanOrEqual(1);
  });
});

describe("what counts as the studio's own", () => {
  it("its API and content hosts and their subdomains, nothing that merely ends alike, nor the operator's other sites", () => {
    const studio = { ...(env as unknown as Env), BASE_URL: "https://studio.acct.workers.dev", CONTENT_URL: "https://studio-content.co.uk" } as Env;
    for (const own of ["studio.acct.workers.dev", "x.studio.acct.workers.dev", "STUDIO-content.co.uk", "p1.studio-content.co.uk"]) {
      expect(ownOriginProblem(studio, `https://${own}/client.json`), own).not.toBeNull();
    }
    for (const other of ["acct.workers.dev", "other.acct.workers.dev", "someone.workers.dev", "evilstudio.acct.workers.dev", "agent.co.uk", "mcp-client.example"]) {
      expect(ownOriginProblem(studio, `https://${other}/client.json`), other).toBeNull();
    }
  });
});
