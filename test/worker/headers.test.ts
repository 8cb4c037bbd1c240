// Security headers on every response of the API origin (JSON, errors, docs, files, event streams, the dashboard's
// pages and assets), the dashboard's CSP, HSTS only over https, and links that never carry a forged Host.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { API_CSP, dashboardCsp } from "../../worker/http/secure-headers.ts";
import { api, BASE, createProject, json, signIn } from "./helpers.ts";
import { setEnv } from "./idea-helpers.ts";

const CONTENT = "http://content.studio.test";

function expectBaseHeaders(res: Response, what: string) {
  expect(res.headers.get("X-Content-Type-Options"), what).toBe("nosniff");
  expect(res.headers.get("Referrer-Policy"), what).toBe("strict-origin-when-cross-origin");
  expect(res.headers.get("X-Frame-Options"), what).toBe("DENY");
  expect(res.headers.get("Strict-Transport-Security"), what).toBeNull(); // BASE_URL is http in these tests
}

describe("security headers on the API origin", () => {
  it("are on JSON, errors, the docs, files and render event streams, with the deny-all CSP", async () => {
    const s = await signIn("headers-api");
    await createProject(s.token, "Headers", { files: { "notes.txt": "plain text" } });
    const responses: [string, Response][] = [
      ["health", await api(null, "GET", "/api/health")],
      ["401", await api(null, "GET", "/api/projects")],
      ["404", await api(s.token, "GET", "/api/nothing-here")],
      ["400", await api(s.token, "PUT", "/api/projects/headers/files/..%2fx", "x")],
      ["docs", await api(s.token, "GET", "/api/docs")],
      ["openapi", await api(null, "GET", "/api/openapi.json")],
      ["file", await api(s.token, "GET", "/api/projects/headers/files/notes.txt")],
      ["CORS preflight", await SELF.fetch(`${BASE}/api/projects`, { method: "OPTIONS", headers: { Origin: "https://agent.example", "Access-Control-Request-Method": "POST" } })],
    ];
    for (const [what, res] of responses) {
      expectBaseHeaders(res, what);
      expect(res.headers.get("Content-Security-Policy"), what).toBe(API_CSP);
    }
    // A file a browser could run keeps its own, stricter CSP (sandboxed attachment), with the same base headers.
    const active = await api(s.token, "GET", "/api/projects/headers/files/index.html");
    expectBaseHeaders(active, "active file");
    expect(active.headers.get("Content-Security-Policy")).toMatch(/^sandbox/);
    // The event stream comes from the project's Durable Object (read-only headers) and still streams.
    const events = await api(s.token, "GET", "/api/projects/headers/render/events");
    expect(events.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    expectBaseHeaders(events, "events");
    const first = await events.body!.getReader().read();
    expect(new TextDecoder().decode(first.value)).toContain("snapshot");
    await events.body!.cancel().catch(() => undefined);
  });

  it("serve the dashboard's pages and assets with the dashboard CSP, and still count the page view", async () => {
    const page = await SELF.fetch(`${BASE}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toMatch(/^text\/html/);
    expectBaseHeaders(page, "page");
    expect(page.headers.get("Content-Security-Policy")).toBe(dashboardCsp(env));
    expect(page.headers.getSetCookie().some((c) => c.startsWith("studio_visitor="))).toBe(true);
    const script = /<script[^>]+src="([^"]+)"/.exec(await page.text())?.[1];
    expect(script).toMatch(/^\/assets\/.+\.js$/);
    const asset = await SELF.fetch(`${BASE}${script}`);
    expect(asset.status).toBe(200);
    expectBaseHeaders(asset, "asset");
  });

  it("spell the dashboard CSP out: own scripts only, user content from the content origin, no framing", () => {
    expect(dashboardCsp(env)).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; " +
        `img-src 'self' data: ${CONTENT}; media-src 'self' blob: ${CONTENT}; frame-src ${CONTENT}; ` +
        "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
  });

  it("add HSTS when BASE_URL is https", async () => {
    const restore = setEnv({ BASE_URL: "https://studio.test" });
    try {
      const res = await SELF.fetch("https://studio.test/api/health");
      expect(res.headers.get("Strict-Transport-Security")).toBe("max-age=31536000");
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    } finally {
      restore();
    }
  });
});

describe("a forged Host header", () => {
  const EVIL = "http://evil.example";

  it("never appears in a link of health, me, docs, OpenAPI, file writes or token rotation", async () => {
    const s = await signIn("headers-host");
    await createProject(s.token, "Host Links");
    const at = (method: string, path: string, body?: string, cookie = false) =>
      SELF.fetch(`${EVIL}${path}`, {
        method,
        headers: cookie ? { Cookie: s.cookie, Origin: BASE } : { Authorization: `Bearer ${s.token}` },
        body,
      });
    const bodies = [
      await (await at("GET", "/api/health")).text(),
      await (await at("GET", "/api/me")).text(),
      await (await at("GET", "/api/docs")).text(),
      await (await at("GET", "/api/openapi.json")).text(),
      await (await at("PUT", "/api/projects/host-links/files/assets/a.txt", "x")).text(),
      await (await at("POST", "/api/me/token/rotate", undefined, true)).text(),
    ];
    for (const body of bodies) {
      expect(body).not.toContain("evil.example");
      expect(body).toContain(BASE);
    }
  });

  it("does not make a cookie write from that host's Origin same-origin", async () => {
    const s = await signIn("headers-host-csrf");
    const res = await SELF.fetch(`${EVIL}/api/projects`, {
      method: "POST",
      headers: { Cookie: s.cookie, Origin: EVIL, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Forged Host" }),
    });
    expect(res.status).toBe(403);
    expect((await json<{ projects: unknown[] }>(await api(s.token, "GET", "/api/projects"))).projects).toEqual([]);
  });
});
