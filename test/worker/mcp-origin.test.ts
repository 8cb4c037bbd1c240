// /mcp's Origin rule (worker/mcp/mcp-origin.ts), the MCP transport's defence against DNS rebinding: a request with
// no Origin (an MCP client outside a browser) or the API origin's own is served; any other Origin, the content
// origin's and a sandboxed page's "null" included, is 403 in the API's error shape on every method, preflights too,
// before the caller is identified (no D1 round trip, even for a token never seen) and with nothing done.
import { describe, expect, it } from "vitest";
import { mcpOriginRefusal } from "../../worker/mcp/mcp-origin.ts";
import { CONTENT } from "./content-helpers.ts";
import { api, BASE, json, signIn } from "./helpers.ts";
import { rpcMessage } from "./mcp-helpers.ts";
import { bearer, send } from "./traced-worker.ts";

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "origin-test", version: "1" } } };

/** Origins that are not the studio's API origin; each must be refused. */
const FOREIGN = [
  CONTENT, // user-written pages
  "null", // a sandboxed page (the content origin's, or any opaque origin)
  "http://evil.example.com", // the DNS-rebinding page
  `${BASE}.evil.example`,
  `${BASE}:8080`,
  BASE.replace("http:", "https:"),
  `${BASE}/`, // not a serialized origin
];

function postMcp(headers: Record<string, string>, body: unknown = INITIALIZE) {
  return api(null, "POST", "/mcp", JSON.stringify(body), { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers });
}

describe("the Origin rule as a decision", () => {
  it("lets through no Origin and the API origin only", () => {
    expect(mcpOriginRefusal(undefined, BASE)).toBeNull();
    expect(mcpOriginRefusal("", BASE)).toBeNull();
    expect(mcpOriginRefusal(BASE, BASE)).toBeNull();
    for (const origin of FOREIGN) expect(mcpOriginRefusal(origin, BASE), origin).toContain(`only ${BASE}`);
  });
});

describe("/mcp over HTTP", () => {
  it("serves a token holder with no Origin and with the API origin", async () => {
    const s = await signIn("mcp-origin-ok");
    for (const headers of [{}, { Origin: BASE }] as Record<string, string>[]) {
      const { answer } = await rpcMessage(s.token, "initialize", INITIALIZE.params, headers);
      expect((answer?.result as { serverInfo?: unknown } | undefined)?.serverInfo, JSON.stringify(headers)).toBeDefined();
    }
  });

  it("refuses every other Origin with 403 in the API's error shape, even with a valid token", async () => {
    const s = await signIn("mcp-origin-refused");
    for (const origin of FOREIGN) {
      const res = await postMcp({ Origin: origin, Authorization: `Bearer ${s.token}` });
      expect(res.status, origin).toBe(403);
      expect(res.headers.get("Content-Type"), origin).toMatch(/^application\/json/);
      const body = await json<{ error: string; code: string }>(res);
      expect(body.error, origin).toMatch(/^forbidden: Origin .* may not use the MCP server/);
      expect(body.code).toBe("forbidden");
      // Nothing that would let the page read the answer, and the API's own headers still on.
      expect(res.headers.get("Access-Control-Allow-Origin"), origin).toBeNull();
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
  });

  it("refuses a foreign Origin on every method, the CORS preflight included; without one GET and DELETE stay 405", async () => {
    for (const method of ["GET", "DELETE", "OPTIONS", "PUT", "PATCH"]) {
      const res = await api(null, method, "/mcp", undefined, {
        Origin: "http://evil.example.com",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
      });
      expect(res.status, method).toBe(403);
      expect((await json<{ error: string }>(res)).error, method).toMatch(/^forbidden: /);
      expect(res.headers.get("Access-Control-Allow-Origin"), method).toBeNull();
    }
    for (const method of ["GET", "DELETE"]) expect((await api(null, method, "/mcp")).status, method).toBe(405);
  });

  it("answers the refusal before any credential work: no D1 round trip, where the same token without Origin costs one", async () => {
    const s = await signIn("mcp-origin-trips");
    const body = JSON.stringify(INITIALIZE);
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const never = `stu_${"n".repeat(43)}`;
    for (const token of [s.token, never]) {
      const refused = await send("/mcp", { method: "POST", headers: bearer(token, { ...headers, Origin: "http://evil.example.com" }), body });
      expect(refused.res.status).toBe(403);
      expect(refused.trips, refused.log.join("\n")).toBe(0);
    }
    // The control: the tracer does see the lookup of that unknown token when the Origin is fine.
    const looked = await send("/mcp", { method: "POST", headers: bearer(never, { ...headers, Origin: BASE }), body });
    expect(looked.res.status).toBe(401);
    expect(looked.trips).toBeGreaterThan(0);
  });

  it("does nothing for a refused tool call: no project is made", async () => {
    const s = await signIn("mcp-origin-nothing");
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "create_project", arguments: { name: "Rebound", duration: 2 } } };
    for (const origin of [CONTENT, "http://evil.example.com"]) {
      expect((await postMcp({ Origin: origin, Authorization: `Bearer ${s.token}` }, call)).status, origin).toBe(403);
    }
    const listed = await json<{ projects: unknown[] }>(await api(s.token, "GET", "/api/projects"));
    expect(listed.projects).toEqual([]);
    // The same call without an Origin does make it, so the assertion above could fail.
    const made = await postMcp({ Authorization: `Bearer ${s.token}` }, call);
    expect(made.status, await made.text()).toBe(200);
    expect((await json<{ projects: unknown[] }>(await api(s.token, "GET", "/api/projects"))).projects).toHaveLength(1);
  });
});
