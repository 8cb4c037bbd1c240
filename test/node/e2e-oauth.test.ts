// OAuth for /mcp end to end, as an MCP client and a person do it: the real Worker (wrangler dev, KV simulated
// locally) and the real dashboard in headless Chromium. The client discovers the authorization server from the
// /mcp 401, registers itself, and sends the person's browser to the consent request; the person is not signed in,
// signs in on the dashboard and comes back to the consent page, sees the client's name and the redirect host, and
// allows two scopes; the client exchanges the code with its PKCE verifier, calls tools through the MCP SDK with the
// access token, refreshes, and is disconnected from the dashboard's Connected apps card: then its tokens fail.
import { createServer, type Server } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_FLAGS } from "../../render-node/src/browser/launch-capture-browser.ts";
import { resolveChrome } from "../../render-node/src/system/resolve-binaries.ts";
import { signInToSharedStudio, type SharedSignedIn } from "./shared-studio.ts";

let s: SharedSignedIn;
let browser: Browser | null = null;
let callback: Server;
let redirectUri = "";
/** The URLs the client's redirect endpoint received (the authorization responses). */
const received: URL[] = [];

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");

beforeAll(async () => {
  s = await signInToSharedStudio("e2e-oauth");
  // The MCP client's redirect endpoint, on a loopback port as a desktop client's is.
  callback = createServer((req, res) => {
    received.push(new URL(req.url ?? "/", redirectUri));
    res.end("connected: you can close this window");
  });
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
  const address = callback.address();
  redirectUri = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/callback`;
  browser = await puppeteer.launch({ executablePath: await resolveChrome(), headless: "shell", args: BASE_FLAGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  callback?.close();
});

async function mcpClient(accessToken: string): Promise<Client> {
  const client = new Client({ name: "e2e-oauth", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${accessToken}` } } }));
  return client;
}

function tokenRequest(fields: Record<string, string>) {
  return fetch(`${s.url}/oauth/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
}

describe("an MCP client connecting through OAuth", () => {
  it("registers, gets the person's consent in a real browser, calls tools, refreshes, and is disconnected", async () => {
    // Discovery: the 401 names the protected-resource metadata, which names the authorization server.
    const challenge = (await fetch(`${s.url}/mcp`, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } })).headers.get("WWW-Authenticate") ?? "";
    const resourceUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? "";
    const resource = (await (await fetch(resourceUrl)).json()) as { resource: string; authorization_servers: string[] };
    const server = (await (await fetch(`${resource.authorization_servers[0]}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;

    // Dynamic registration as a public client.
    const registered = await fetch(server.registration_endpoint!, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ client_name: "E2E <b>Agent</b>", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }),
    });
    expect(registered.status).toBe(201);
    const clientId = ((await registered.json()) as { client_id: string }).client_id;

    // PKCE, then the person's browser at the authorization endpoint.
    const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
    const challengeS256 = b64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
    const authorize = new URL(server.authorization_endpoint!);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, state: "xyz-state", code_challenge: challengeS256, code_challenge_method: "S256", resource: resource.resource, scope: "projects:read projects:write" })) {
      authorize.searchParams.set(k, v);
    }
    const page = await browser!.newPage();
    await page.goto(authorize.href, { waitUntil: "networkidle0" });
    // Not signed in: the dashboard's sign-in, which comes back to the consent request.
    expect(new URL(page.url()).searchParams.get("next")).toContain("/oauth/authorize?");
    await page.waitForSelector("#dev-name");
    await page.type("#dev-name", "Browser Bea");
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click(".dev-login button[type=submit]")]);
    await page.waitForSelector("#approve");
    expect(new URL(page.url()).pathname).toBe("/oauth/authorize");
    expect(await page.$eval("#client-name", (el) => el.textContent)).toBe("E2E <b>Agent</b>");
    expect(await page.$eval("#redirect-host", (el) => el.textContent)).toBe("127.0.0.1");
    const checked = await page.$$eval("input[name=scope]:checked", (els) => els.map((el) => (el as HTMLInputElement).value));
    expect(checked.sort()).toEqual(["projects:read", "projects:write"]);
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click("#approve")]);
    expect(received).toHaveLength(1);
    const answer = received[0]!;
    expect(answer.searchParams.get("state")).toBe("xyz-state");
    expect(answer.searchParams.get("iss")).toBe(s.url);
    const code = answer.searchParams.get("code")!;

    // The code, with the verifier, for tokens.
    const exchanged = await tokenRequest({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string; scope: string };

    // Tools through the MCP SDK: the granted ones only; a project made as the person.
    const client = await mcpClient(tokens.access_token);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("create_project");
    expect(names).not.toContain("render");
    const created = (await client.callTool({ name: "create_project", arguments: { name: "Made over OAuth" } })) as CallToolResult;
    expect(created.isError).toBeFalsy();
    expect(((await (await s.call("GET", "/api/projects")).json()) as { projects: { slug: string }[] }).projects.map((p) => p.slug)).not.toContain("made-over-oauth");
    await client.close();

    // Refresh: a new access token that works.
    const refreshed = await tokenRequest({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as { access_token: string; refresh_token: string };
    const again = await mcpClient(fresh.access_token);
    const listed = (await again.callTool({ name: "list_projects", arguments: {} })) as CallToolResult;
    expect(JSON.stringify(listed.content)).toContain("made-over-oauth");
    await again.close();

    // The person disconnects the app on the dashboard: its tokens fail from then on.
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${s.url}/`, { waitUntil: "networkidle0" });
    await page.waitForSelector("[data-testid=connected-app]");
    expect(await page.$eval("[data-testid=connected-app]", (el) => el.textContent)).toContain("E2E <b>Agent</b>");
    await page.click("[data-testid=connected-app] button");
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=connected-app]").length === 0);
    const after = await fetch(`${s.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${fresh.access_token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(after.status).toBe(401);
    expect((await tokenRequest({ grant_type: "refresh_token", refresh_token: fresh.refresh_token, client_id: clientId })).status).toBe(400);
    await page.close();
  }, 120_000);
});
