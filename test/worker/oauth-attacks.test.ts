// Attacks on OAuth for /mcp (the served security model, worker/docs/text/security.md, names each threat): a
// redirect URI that is not the registered one, a missing or wrong PKCE verifier, a replayed code, a consent post
// from another site, from another session or without its nonce, framing of the consent page, hostile client
// names, scope escalation through tools and REST routes, a revoked grant, and an OAuth token used off /mcp.
import { describe, expect, it } from "vitest";
import { authorizePath, connect, mcp, openConsent, ORIGIN, pkce, postConsent, REDIRECT, registerClient, send, signInPerson, tokenRequest, toolNames } from "./oauth-helpers.ts";

async function consentCode(scopes: string[] = ["projects:read"]) {
  const person = await signInPerson(`Target ${crypto.randomUUID().slice(0, 6)}`);
  const clientId = await registerClient();
  const { verifier, challenge } = await pkce();
  const form = await openConsent(person, authorizePath(clientId, challenge));
  const approved = await postConsent(form, { decision: "approve", scope: scopes });
  const code = new URL(approved.headers.get("Location")!).searchParams.get("code")!;
  return { person, clientId, verifier, code };
}

const exchange = (clientId: string, code: string, verifier: string | undefined, redirect = REDIRECT) =>
  tokenRequest({ grant_type: "authorization_code", code, redirect_uri: redirect, client_id: clientId, ...(verifier ? { code_verifier: verifier } : {}) });

describe("the authorization request", () => {
  it("refuses a redirect URI other than the registered one, on a page here, never redirecting to it", async () => {
    const person = await signInPerson("Redirect Rae");
    const clientId = await registerClient();
    const { challenge } = await pkce();
    for (const evil of ["https://evil.example/callback", `${REDIRECT}/extra`, "http://127.0.0.1:7777/callback?x=1"]) {
      const res = await send(authorizePath(clientId, challenge, { redirect_uri: evil }), { headers: { Cookie: person.cookie } });
      expect(res.status).toBe(400);
      expect(res.headers.get("Location")).toBeNull();
    }
  });

  it("refuses a request without PKCE S256 (back to the client with invalid_request, no consent page)", async () => {
    const person = await signInPerson("Pkce Pat");
    const clientId = await registerClient();
    for (const challenge of [null, "plain"]) {
      const path = challenge === "plain" ? authorizePath(clientId, null, { code_challenge: "a".repeat(43), code_challenge_method: "plain" }) : authorizePath(clientId, null);
      const res = await send(path, { headers: { Cookie: person.cookie } });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get("Location")!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get("error")).toBe("invalid_request");
      expect(location.searchParams.get("state")).toBe("state-123");
    }
  });

  it("requires PKCE of confidential clients too (the library alone requires it of public ones)", async () => {
    const person = await signInPerson("Secret Sid");
    const res = await send("/oauth/register", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ client_name: "Confidential", redirect_uris: [REDIRECT], token_endpoint_auth_method: "client_secret_post" }),
    });
    expect(res.status).toBe(201);
    const { client_id, client_secret } = (await res.json()) as { client_id: string; client_secret: string };
    expect(client_secret).toBeTruthy();
    const refused = await send(authorizePath(client_id, null), { headers: { Cookie: person.cookie } });
    expect(refused.status).toBe(302);
    expect(new URL(refused.headers.get("Location")!).searchParams.get("error")).toBe("invalid_request");
    expect(await refused.text()).not.toContain('name="handle"');
  });

  it("sends a person who is not signed in to sign in first, and back to this request", async () => {
    const clientId = await registerClient();
    const { challenge } = await pkce();
    const path = authorizePath(clientId, challenge);
    const res = await send(path);
    expect(res.status).toBe(302);
    const next = new URL(res.headers.get("Location")!, ORIGIN).searchParams.get("next");
    expect(next).toBe(path);
  });

  it("provider sign-in comes back only to a consent request on this origin, never to anywhere else", async () => {
    const cases = [
      ["/oauth/authorize?client_id=x&state=y", "/oauth/authorize?client_id=x&state=y"],
      ["https://evil.example/oauth/authorize?", "/"],
      ["//evil.example/oauth/authorize?", "/"],
      ["/oauth/authorize?\\evil", "/"],
      ["/api/me", "/"],
    ];
    for (const [next, expected] of cases) {
      const begin = await send(`/auth/github?next=${encodeURIComponent(next!)}`);
      const state = new URL(begin.headers.get("Location")!).searchParams.get("state");
      const cookies = begin.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
      const res = await send(`/auth/github/callback?code=good-code&state=${state}`, { headers: { Cookie: cookies } });
      expect(res.status, next).toBe(302);
      expect(res.headers.get("Location"), next).toBe(expected);
    }
  });

  it("shows a hostile client name escaped and cut short, with the redirect host, and cannot be framed", async () => {
    const person = await signInPerson("Framed Fay");
    const hostile = `<script>alert(1)</script><img src=x onerror=alert(2)>${"A".repeat(500)}`;
    const clientId = await registerClient(hostile);
    const { challenge } = await pkce();
    const form = await openConsent(person, authorizePath(clientId, challenge));
    expect(form.html).not.toContain("<script>alert");
    expect(form.html).not.toContain("<img");
    expect(form.html).toContain("&lt;script&gt;");
    expect(form.html).not.toContain("A".repeat(100));
    expect(form.html).toContain('id="redirect-host">127.0.0.1<');
    expect(form.html).toContain("an app on this computer");
    expect(form.headers.get("X-Frame-Options")).toBe("DENY");
    expect(form.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(form.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    expect(form.headers.get("Cache-Control")).toBe("no-store");
  });
});

describe("the consent post", () => {
  async function openForm() {
    const person = await signInPerson(`Consent ${crypto.randomUUID().slice(0, 6)}`);
    const clientId = await registerClient();
    const { challenge } = await pkce();
    return { person, form: await openConsent(person, authorizePath(clientId, challenge)) };
  }

  it("is refused from another site (the app's cross-site rule), and no code is issued", async () => {
    const { form } = await openForm();
    const spellings: Record<string, string>[] = [{ Origin: "https://evil.example" }, { "Sec-Fetch-Site": "cross-site" }, {}];
    for (const headers of spellings) {
      const res = await postConsent(form, { decision: "approve", scope: "projects:read" }, headers);
      expect(res.status).toBe(403);
      expect(res.headers.get("Location")).toBeNull();
    }
    // The form itself was not spent: the person can still approve it from the page.
    expect((await postConsent(form, { decision: "approve", scope: "projects:read" })).status).toBe(302);
  });

  it("is refused without its nonce, with another session's nonce, or by another signed-in person", async () => {
    const { form } = await openForm();
    expect((await postConsent(form, { nonce: "", decision: "approve", scope: "projects:read" })).status).toBe(403);
    const other = await openForm();
    expect((await postConsent(form, { nonce: other.form.nonce, decision: "approve", scope: "projects:read" })).status).toBe(403);
    // Another person's session with this browser's consent cookie: the nonce is bound to the session that opened it.
    const intruder = await signInPerson("Intruder Ian");
    const swapped = { ...form, cookie: form.cookie.replace(/studio_session=[^;]+/, intruder.cookie) };
    expect((await postConsent(swapped, { decision: "approve", scope: "projects:read" })).status).toBe(403);
    // Without the browser's binding cookie (a handle and nonce lifted from the page), the library refuses.
    const unbound = { ...form, cookie: form.cookie.split("; ").filter((c) => !c.startsWith("__Host-")).join("; ") };
    const res = await postConsent(unbound, { decision: "approve", scope: "projects:read" });
    expect(res.status).toBe(400);
    expect(res.headers.get("Location")).toBeNull();
  });

  it("deny sends access_denied back to the client; a form works once", async () => {
    const { form } = await openForm();
    const denied = await postConsent(form, { decision: "deny" });
    expect(denied.status).toBe(302);
    expect(new URL(denied.headers.get("Location")!).searchParams.get("error")).toBe("access_denied");
    expect((await postConsent(form, { decision: "approve", scope: "projects:read" })).status).toBe(400);
  });

  it("grants only scopes the studio knows, never more than were ticked", async () => {
    const { form, person } = await openForm();
    const approved = await postConsent(form, { decision: "approve", scope: ["projects:read", "admin", "offline_access"] });
    expect(approved.status).toBe(302);
    const apps = (await (await send("/api/me/apps", { headers: { Authorization: `Bearer ${person.token}` } })).json()) as { apps: { scopes: string[] }[] };
    expect(apps.apps[0]!.scopes).toEqual(["projects:read"]);
  });
});

describe("the code exchange", () => {
  it("reads a token or registration body only up to its limit (413)", async () => {
    const big = "x".repeat(20 * 1024);
    expect((await tokenRequest({ grant_type: "authorization_code", code: big })).status).toBe(413);
    const reg = await send("/oauth/register", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ client_name: "x".repeat(70 * 1024), redirect_uris: [REDIRECT] }) });
    expect(reg.status).toBe(413);
  });

  it("needs the PKCE verifier the challenge was made from", async () => {
    const { clientId, code } = await consentCode();
    expect((await exchange(clientId, code, undefined)).status).toBe(400);
    const again = await consentCode();
    expect((await exchange(again.clientId, again.code, (await pkce()).verifier)).status).toBe(400);
  });

  it("needs the same redirect URI, and a code works once (a replay is refused)", async () => {
    const { clientId, code, verifier } = await consentCode();
    expect((await exchange(clientId, code, verifier, "http://127.0.0.1:7777/other")).status).toBe(400);
    const fresh = await consentCode();
    expect((await exchange(fresh.clientId, fresh.code, fresh.verifier)).status).toBe(200);
    expect((await exchange(fresh.clientId, fresh.code, fresh.verifier)).status).toBe(400);
  });
});

describe("scopes", () => {
  it("a projects:read token sees no write, render or idea tool, and a call to one is refused", async () => {
    const person = await signInPerson("Reader Rhea");
    const reader = await connect(person, ["projects:read"]);
    expect(await toolNames(reader.access_token)).toEqual(["get_account", "get_batch", "get_project", "get_render", "lint", "list_files", "list_projects", "list_renders", "read_file"]);
    for (const [name, args] of [["render", { slug: "x" }], ["create_project", { name: "nope" }], ["write_file", { slug: "x", path: "a.txt", content: "x" }], ["post_idea", { title: "t" }], ["snapshot", { slug: "x" }]] as const) {
      const { body } = await mcp(reader.access_token, "tools/call", { name, arguments: args });
      const text = JSON.stringify(body);
      expect(text).toMatch(/not found|error/i);
    }
    const projects = (await (await send("/api/projects", { headers: { Authorization: `Bearer ${person.token}` } })).json()) as { projects: unknown[] };
    expect(projects.projects).toHaveLength(0);
  });

  it("an OAuth access token is refused on every REST route: it is for /mcp only", async () => {
    const person = await signInPerson("Direct Dan");
    const { access_token } = await connect(person, ["projects:read", "projects:write", "render", "ideas"]);
    for (const [method, path] of [["GET", "/api/projects"], ["GET", "/api/me"], ["POST", "/api/me/token/rotate"], ["GET", "/api/me/apps"], ["POST", "/api/bots"]] as const) {
      const res = await send(path, { method, headers: { Authorization: `Bearer ${access_token}` } });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});
