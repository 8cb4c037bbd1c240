// OAuth 2.1 for /mcp, the happy path an MCP client walks: the 401 names the protected-resource metadata, which
// names the authorization server; dynamic registration; consent; the code exchanged with its PKCE verifier; tools
// listed and called with the access token; refresh; revocation; and the person's connected apps on the dashboard's
// API. The consent page in a real browser is in test/node/e2e-oauth.test.ts.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { D1Trace } from "../../bench/d1-trace/trace-d1.ts";
import { authorizePath, connect, mcp, openConsent, ORIGIN, pkce, postConsent, REDIRECT, send, signInPerson, tokenRequest, toolNames } from "./oauth-helpers.ts";

describe("OAuth discovery", () => {
  it("the /mcp 401 points at the protected-resource metadata, which points at the authorization server", async () => {
    const res = await send("/mcp", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    const challenge = res.headers.get("WWW-Authenticate") ?? "";
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    expect(metadataUrl).toBe(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);
    const resource = (await (await send(new URL(metadataUrl!).pathname)).json()) as { resource: string; authorization_servers: string[]; scopes_supported: string[] };
    expect(resource.resource).toBe(`${ORIGIN}/mcp`);
    expect(resource.scopes_supported).toEqual(["projects:read", "projects:write", "render", "ideas"]);
    expect((await (await send("/.well-known/oauth-protected-resource")).json()) as object).toEqual(resource);
    const server = (await (await send("/.well-known/oauth-authorization-server")).json()) as Record<string, unknown>;
    expect(server.issuer).toBe(resource.authorization_servers[0]);
    expect(server.authorization_endpoint).toBe(`${ORIGIN}/oauth/authorize`);
    expect(server.token_endpoint).toBe(`${ORIGIN}/oauth/token`);
    expect(server.registration_endpoint).toBe(`${ORIGIN}/oauth/register`);
    expect(server.code_challenge_methods_supported).toEqual(["S256"]);
    expect(server.client_id_metadata_document_supported).toBe(true);
  });
});

describe("a client identified by a client ID metadata document", () => {
  it("needs no registration: its document names it and its redirect URIs, and the consent page shows its domain", async () => {
    const person = await signInPerson("Cimd Cora");
    const clientId = "https://mcp-client.test/oauth/client.json";
    const { verifier, challenge } = await pkce();
    const form = await openConsent(person, authorizePath(clientId, challenge));
    expect(form.html).toContain("Metadata Client");
    expect(form.html).toContain("Published by <strong>mcp-client.test</strong>");
    const approved = await postConsent(form, { decision: "approve", scope: "ideas" });
    const code = new URL(approved.headers.get("Location")!).searchParams.get("code")!;
    const res = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: verifier });
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    expect(await toolNames(access_token)).toContain("list_ideas");
    // A redirect URI its document does not list is refused.
    const other = await send(authorizePath(clientId, challenge, { redirect_uri: "http://127.0.0.1:7777/elsewhere" }), { headers: { Cookie: person.cookie } });
    expect(other.status).toBe(400);
  });
});

describe("an MCP client connected through OAuth", () => {
  it("works with its scopes, refreshes, is listed on the dashboard's API, and stops when revoked", async () => {
    const person = await signInPerson("Oauth Olive");
    const tokens = await connect(person, ["projects:read", "projects:write"], "Olive's Agent");
    expect(tokens.scope.split(" ").sort()).toEqual(["projects:read", "projects:write"]);
    // Tools: the project tools its scopes allow, none that render or touch the idea board.
    const names = await toolNames(tokens.access_token);
    expect(names).toContain("create_project");
    expect(names).toContain("list_projects");
    expect(names).not.toContain("render");
    expect(names).not.toContain("post_idea");
    const created = await mcp(tokens.access_token, "tools/call", { name: "create_project", arguments: { name: "From OAuth" } });
    expect(JSON.stringify(created.body)).toContain("from-oauth");
    // The project is the person's: their personal token sees it.
    const listed = await send("/api/projects", { headers: { Authorization: `Bearer ${person.token}` } });
    expect(JSON.stringify(await listed.json())).toContain("from-oauth");
    // get_account names the person and never carries the personal token.
    const account = await mcp(tokens.access_token, "tools/call", { name: "get_account", arguments: {} });
    expect(JSON.stringify(account.body)).toContain("Oauth Olive");
    expect(JSON.stringify(account.body)).not.toContain(person.token);

    // Refresh: a new access token that works; refresh tokens rotate.
    const refreshed = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: tokens.clientId });
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(fresh.access_token).not.toBe(tokens.access_token);
    expect((await mcp(fresh.access_token, "tools/list")).status).toBe(200);

    // Tokens are stored hashed: no KV key or value holds the token's secret part.
    const keys = await env.OAUTH_KV.list();
    const secret = fresh.access_token.split(":")[2]!;
    for (const { name } of keys.keys) {
      expect(name).not.toContain(secret);
      expect((await env.OAUTH_KV.get(name)) ?? "").not.toContain(secret);
    }

    // Connected apps: listed for the person, revoked from there; the token then fails.
    const apps = (await (await send("/api/me/apps", { headers: { Authorization: `Bearer ${person.token}` } })).json()) as { apps: { id: string; clientName: string; scopes: string[] }[] };
    expect(apps.apps).toHaveLength(1);
    expect(apps.apps[0]).toMatchObject({ clientName: "Olive's Agent", scopes: ["projects:read", "projects:write"] });
    const revoked = await send(`/api/me/apps/${apps.apps[0]!.id}`, { method: "DELETE", headers: { Authorization: `Bearer ${person.token}` } });
    expect(revoked.status).toBe(200);
    const after = await mcp(fresh.access_token, "tools/list");
    expect(after.status).toBe(401);
    expect((await tokenRequest({ grant_type: "refresh_token", refresh_token: fresh.refresh_token, client_id: tokens.clientId })).status).toBe(400);
  });

  it("costs no D1 round trip to authenticate: a tool call makes only the trips its REST route makes, as a personal token's does", async () => {
    const person = await signInPerson("Budget Bea");
    const { access_token } = await connect(person, ["projects:read"]);
    const trips = async (token: string) => {
      const trace = new D1Trace(env.DB, { primaryMs: 0, replicaMs: 0 });
      const { status } = await mcp(token, "tools/call", { name: "list_projects", arguments: {} }, trace.db);
      expect(status).toBe(200);
      return trace.counts.primaryWaves;
    };
    await trips(person.token); // the personal token's caller cached, as on a warm isolate
    const personal = await trips(person.token);
    const oauth = await trips(access_token);
    expect(oauth).toBeLessThanOrEqual(1);
    expect(oauth).toBeLessThanOrEqual(personal);
    // tools/list reaches no REST route: no trip at all.
    const trace = new D1Trace(env.DB, { primaryMs: 0, replicaMs: 0 });
    expect((await mcp(access_token, "tools/list", {}, trace.db)).status).toBe(200);
    expect(trace.counts.primaryWaves).toBe(0);
  });

  it("stops working when the client revokes its own token (RFC 7009)", async () => {
    const person = await signInPerson("Revoking Rita");
    const tokens = await connect(person, ["ideas"]);
    expect(await toolNames(tokens.access_token)).toEqual(["check_idea", "comment_idea", "list_ideas", "post_idea", "vote_idea"]);
    const res = await tokenRequest({ token: tokens.access_token, token_type_hint: "access_token", client_id: tokens.clientId });
    expect(res.status).toBe(200);
    expect((await mcp(tokens.access_token, "tools/list")).status).toBe(401);
  });

  it("is disconnected, every app of the person, when they rotate their personal token", async () => {
    const person = await signInPerson("Rotating Rosa");
    const one = await connect(person, ["projects:read"], "App One");
    const two = await connect(person, ["render", "projects:read"], "App Two");
    const other = await connect(await signInPerson("Bystander Bo"), ["projects:read"]);
    const res = await send("/api/me/token/rotate", { method: "POST", headers: { Authorization: `Bearer ${person.token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { appsRevoked: number }).appsRevoked).toBe(2);
    expect((await mcp(one.access_token, "tools/list")).status).toBe(401);
    expect((await mcp(two.access_token, "tools/list")).status).toBe(401);
    expect((await tokenRequest({ grant_type: "refresh_token", refresh_token: two.refresh_token, client_id: two.clientId })).status).toBe(400);
    // Another person's app is untouched.
    expect((await mcp(other.access_token, "tools/list")).status).toBe(200);
  });
});
