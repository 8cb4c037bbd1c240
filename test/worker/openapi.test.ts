// The OpenAPI document as a contract: every route the app serves is in it, it is structurally OpenAPI 3.1, and
// real responses from a walk through the API parse with the schemas it declares for them.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { createApiApp } from "../../worker/app.ts";
import { errorSchema } from "../../worker/openapi/operation.ts";
import { documentedOperations, type DocumentedOperation } from "../../worker/openapi/routes-of.ts";
import { api, BASE, createProject, json, signIn } from "./helpers.ts";
import { issueBot } from "./idea-helpers.ts";
import { awaitJob, claim, nodeCall, registerNode } from "./node-helpers.ts";

type Doc = {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas?: Record<string, unknown>; securitySchemes: Record<string, { type: string }> };
  tags: { name: string }[];
  webhooks?: Record<string, { post?: OpenApiOperation }>;
};
type OpenApiOperation = {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  security?: Record<string, string[]>[];
};

const METHODS = ["get", "post", "put", "patch", "delete"];

async function fetchDoc(): Promise<Doc> {
  const res = await api(null, "GET", "/api/openapi.json");
  expect(res.status).toBe(200);
  return json<Doc>(res);
}

/** hono's path syntax to OpenAPI's: /:slug → /{slug}; a trailing * (file paths) → /{path}. */
const toTemplate = (path: string) => path.replace(/:(\w+)/g, "{$1}").replace(/\/\*$/, "/{path}");

describe("OpenAPI document", () => {
  it("declares every route the app serves (the node protocol under the node tag), and nothing it does not serve", async () => {
    const doc = await fetchDoc();
    const served = new Set(
      createApiApp()
        .routes.filter((r) => r.method !== "ALL")
        .map((r) => `${r.method.toLowerCase()} ${toTemplate(r.path)}`),
    );
    const declared = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).filter((m) => METHODS.includes(m)).map((m) => `${m} ${path}`)));
    expect([...served].filter((route) => !declared.has(route))).toEqual([]);
    expect([...declared].filter((route) => !served.has(route))).toEqual([]);
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (path.startsWith("/api/node/")) for (const op of Object.values(ops)) expect(op.tags).toEqual(["node"]);
    }
    expect(served.size).toBeGreaterThan(60);
  });

  it("is structurally OpenAPI 3.1: ids, summaries, path parameters, media types, responses, security schemes, refs", async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBe("Studio API");
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.servers).toEqual([{ url: BASE }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["botKey", "bearerToken", "nodeKey", "sessionCookie", "tokenHeader", "tokenQuery"].sort());
    const ids = new Set<string>();
    const tags = new Set(doc.tags.map((t) => t.name));
    const text = JSON.stringify(doc);
    for (const ref of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) expect(doc.components.schemas ?? {}, ref[1]).toHaveProperty([ref[1]!]);
    for (const [path, ops] of Object.entries(doc.paths)) {
      expect(path.startsWith("/")).toBe(true);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(ops)) {
        expect(METHODS).toContain(method);
        const where = `${method} ${path}`;
        expect(op.operationId, where).toMatch(/^[a-zA-Z][a-zA-Z0-9]*$/);
        expect(ids.has(op.operationId), `${where}: duplicate operationId`).toBe(false);
        ids.add(op.operationId);
        expect(op.summary.length, where).toBeGreaterThan(5);
        expect(op.tags.every((t) => tags.has(t)), where).toBe(true);
        const pathParams = (op.parameters ?? []).filter((p) => p.in === "path");
        expect(pathParams.map((p) => p.name).sort(), where).toEqual([...templated].sort());
        for (const p of op.parameters ?? []) {
          expect(["path", "query", "header", "cookie"]).toContain(p.in);
          if (p.in === "path") expect(p.required, where).toBe(true);
          expect(p.schema, where).toBeDefined();
        }
        expect(Object.keys(op.responses).length, where).toBeGreaterThan(0);
        for (const [status, response] of Object.entries(op.responses)) {
          expect(status, where).toMatch(/^[1-5]\d\d$|^default$/);
          expect(typeof response.description, where).toBe("string");
          // API errors are JSON; only the player's pages (for a browser) answer with HTML.
          if (Number(status) >= 400 && response.content && !path.startsWith("/play/")) expect(Object.keys(response.content), where).toEqual(["application/json"]);
        }
        for (const requirement of op.security ?? []) for (const scheme of Object.keys(requirement)) expect(doc.components.securitySchemes, where).toHaveProperty([scheme]);
      }
    }
    // Raw bytes for file writes, JSON for the rest; query parameters are there.
    expect(Object.keys(doc.paths["/api/projects/{slug}/files/{path}"]!.put!.requestBody!.content)).toContain("application/octet-stream");
    expect(Object.keys(doc.paths["/api/projects"]!.post!.requestBody!.content)).toEqual(["application/json"]);
    const renderQuery = doc.paths["/api/projects/{slug}/render"]!.post!.parameters!.filter((p) => p.in === "query").map((p) => p.name);
    expect(renderQuery).toContain("wait");
    expect(doc.paths["/api/projects"]!.get!.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(["limit", "next"]));
    // The three token forms and the cookie for user operations, bot keys on idea-board writes, node keys on the protocol.
    expect(doc.paths["/api/projects"]!.get!.security).toEqual([{ bearerToken: [] }, { tokenHeader: [] }, { tokenQuery: [] }, { sessionCookie: [] }]);
    expect(doc.paths["/api/ideas"]!.post!.security).toContainEqual({ botKey: [] });
    expect(doc.paths["/api/node/jobs/claim"]!.post!.security).toEqual([{ nodeKey: [] }]);
    // The render options enum comes from the validating schema.
    const renderBody = doc.paths["/api/projects/{slug}/render"]!.post!.requestBody!.content["application/json"]!.schema as { properties: Record<string, { enum?: string[] }> };
    expect(renderBody.properties.format?.enum).toEqual(["mp4", "webm", "mov", "gif", "png-sequence"]);
    // Errors carry the error schema with every code.
    const errorRef = JSON.stringify(doc.paths["/api/projects/{slug}"]!.get!.responses["404"]);
    expect(errorRef).toContain("#/components/schemas/Error");
  });

  it("describes what an agent walks: render ids in the list, the render's webhook and its payload, /mcp's answers", async () => {
    const doc = await fetchDoc();
    // A schema, or the component it refers to when it is a reference itself.
    const schemaOf = (schema: unknown): { properties: Record<string, { description?: string }>; required?: string[] } => {
      const name = (schema as { $ref?: string }).$ref?.replace("#/components/schemas/", "");
      return (name ? doc.components.schemas![name] : schema) as never;
    };
    // GET /api/renders entries carry the id GET /api/renders/{id} takes.
    const list = doc.paths["/api/renders"]!.get!.responses["200"]!.content!["application/json"]!.schema as { properties: { renders: { items: unknown } } };
    const entry = schemaOf(list.properties.renders.items);
    expect(entry.properties).toHaveProperty("id");
    expect(entry.required).toContain("id");
    expect(doc.paths["/api/renders/{id}"]!.get).toBeDefined();
    // The render's webhook is where an agent looks first: the render options and the project webhook route.
    const renderBody = doc.paths["/api/projects/{slug}/render"]!.post!.requestBody!.content["application/json"]!.schema as { properties: Record<string, { description?: string }> };
    expect(renderBody.properties.webhookUrl?.description).toMatch(/when this render ends/);
    expect(doc.paths["/api/projects/{slug}/webhook"]!.put!.summary).toMatch(/webhooks/);
    // OpenAPI 3.1 webhooks: one per event, the signed headers, the payload with its type and the render state.
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual(["batch.cancelled", "batch.done", "batch.failed", "render.cancelled", "render.done", "render.failed"]);
    for (const [event, item] of Object.entries(doc.webhooks!)) {
      const post = item.post!;
      const headers = (post.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
      expect(headers.sort(), event).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
      const payload = schemaOf(post.requestBody!.content["application/json"]!.schema);
      expect(payload.required, event).toEqual(expect.arrayContaining(["type", "timestamp", "data"]));
      expect(JSON.stringify(payload.properties.type), event).toContain(`"${event}"`);
      expect(JSON.stringify(payload.properties.data), event).toContain("downloadUrl");
      expect(Object.keys(post.responses), event).toContain("200");
    }
    // Every /mcp method declares its answers: the JSON-RPC answer on POST, 405 on GET and DELETE (stateless).
    const mcp = doc.paths["/mcp"]!;
    expect(Object.keys(mcp.post!.responses)).toEqual(expect.arrayContaining(["200", "202", "400", "401", "413"]));
    for (const method of ["get", "delete"] as const) {
      expect(Object.keys(mcp[method]!.responses), method).toContain("405");
      expect(JSON.stringify(mcp[method]!.responses["405"]!.content), method).toContain("error");
    }
    // And the server does what the document says.
    for (const method of ["GET", "DELETE"]) {
      const res = await api(null, method, "/mcp");
      expect(res.status, method).toBe(405);
      expect(res.headers.get("Allow")).toBe("POST");
    }
  });

  it("serves an interactive reference whose script runs sandboxed, away from the API origin's cookie", async () => {
    const res = await api(null, "GET", "/api/reference");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toMatch(/^sandbox allow-scripts/);
    expect(csp).not.toContain("allow-same-origin");
    expect(csp).not.toContain("unsafe-eval");
    const nonce = /script-src 'nonce-([a-f0-9]+)' (\S+);/.exec(csp);
    expect(nonce?.[2]).toBe(`${BASE}/vendor/swagger-ui/`);
    // No other party: every origin the policy names is the studio's own.
    expect([...csp.matchAll(/https?:\/\/[^\s/;]+/g)].map((m) => m[0])).toEqual(Array(3).fill(BASE));
    const html = await res.text();
    expect(html).toContain(JSON.stringify(`${BASE}/api/openapi.json`));
    // Every script on the page carries the nonce (nothing else would run), and the UI comes from our own assets.
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toHaveLength(2);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce?.[1]}"`);
    expect(scripts[0]).toContain(`src="${BASE}/vendor/swagger-ui/swagger-ui-bundle.js"`);
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
  });
});

/** Every route the app serves, with the declaration its handler carries (the document is generated from these). */
const OPERATIONS = documentedOperations(createApiApp());

/** The declared operation for a concrete request path. */
function operationFor(method: string, path: string): DocumentedOperation {
  const found = OPERATIONS.find((op) => {
    if (op.method !== method.toLowerCase()) return false;
    const pattern = new RegExp(`^${op.path.replace(/\{path\}/g, ".+").replace(/\{\w+\}/g, "[^/]+")}$`);
    return pattern.test(path);
  });
  if (!found) throw new Error(`no operation declared for ${method} ${path}`);
  return found;
}

/** Calls the API and parses the answer with the schema the document declares for that status. */
async function call(token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return validated(method, path, await api(token, method, path, body, headers));
}

/** The same for a render node's call of the protocol. */
async function callNode(key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return validated(method, `/api/node${path}`, await nodeCall(key, method, path, body, headers));
}

async function validated(method: string, path: string, res: Response) {
  const op = operationFor(method, path.split("?")[0]!);
  const declared = op.route.responses()[res.status];
  const where = `${method} ${path} → ${res.status}`;
  let schema: z.ZodType;
  if (declared) {
    if (!declared.body) return { res, value: null };
    if (!("json" in declared.body)) {
      expect(res.headers.get("Content-Type") ?? "", where).not.toMatch(/^application\/json/);
      return { res, value: null };
    }
    schema = declared.body.json;
  } else {
    expect(res.status, `${where}: undeclared success status`).toBeGreaterThanOrEqual(400);
    schema = errorSchema();
  }
  const value = (await res.json()) as unknown;
  const parsed = schema.safeParse(value);
  expect(parsed.success ? null : { where, issues: parsed.error.issues, value }).toBeNull();
  return { res, value: value as Record<string, unknown> };
}

describe("real responses validate against their declared schemas", () => {
  it("a walk through the studio: identity, projects, files, lint, render, renders, share, errors", async () => {
    const key = await registerNode();
    const s = await signIn("openapi-walk");
    for (const path of ["/api/ping", "/api/health", "/api/stats", "/api/me"]) await call(s.token, "GET", path);
    await call(null, "GET", "/api/health");
    await call(null, "POST", "/api/stats/view?page=/");
    await call(s.token, "POST", "/api/projects", { name: "Walk", createdBy: "openapi-test" });
    await call(s.token, "GET", "/api/projects");
    await call(s.token, "GET", "/api/projects?limit=1");
    await call(s.token, "GET", "/api/projects/walk");
    await call(s.token, "PUT", "/api/projects/walk/files/notes/a.txt", "hello");
    await call(s.token, "POST", "/api/projects/walk/files/b.txt?encoding=base64", btoa("bytes"));
    await call(s.token, "GET", "/api/projects/walk/files");
    await call(s.token, "GET", "/api/projects/walk/files/notes/a.txt");
    await call(s.token, "POST", "/api/projects/walk/lint", { verbose: true });
    await call(s.token, "GET", "/api/projects/walk/preview");
    await call(s.token, "DELETE", "/api/projects/walk/preview");
    await call(s.token, "POST", "/api/projects/walk/share", { expiresIn: 3600 });
    await call(s.token, "GET", "/api/projects/walk/render");
    const started = await call(s.token, "POST", "/api/projects/walk/render", { format: "webm", quality: "draft" });
    expect(started.res.status).toBe(202);
    await call(s.token, "POST", "/api/projects/walk/render", { format: "webm" });
    const job = await claim(key);
    expect(job?.id).toBe(started.value!.id);
    await call(s.token, "GET", "/api/projects/walk/render");
    await call(s.token, "GET", `/api/renders/${job!.id}`);
    await call(s.token, "GET", "/api/renders");
    await call(s.token, "DELETE", "/api/projects/walk/render");
    await call(s.token, "GET", "/api/projects/walk/render");
    // Errors: each in the error schema.
    await call(s.token, "GET", "/api/projects/nope");
    await call(s.token, "POST", "/api/projects", { name: "Walk" });
    await call(null, "GET", "/api/projects");
    await call(s.token, "GET", "/api/projects?limit=none");
    await call(s.token, "DELETE", "/api/projects/walk/files/index.html");
    await call(s.token, "DELETE", "/api/projects/walk/files/b.txt");
    await call(s.token, "POST", "/api/me/token/rotate");
  }, 30_000);

  it("a walk through the idea board: ideas, votes, comments, enrichments, bots, groups, metrics, research", async () => {
    const s = await signIn("openapi-board");
    const posted = await call(s.token, "POST", "/api/ideas", { title: "OpenAPI-described idea about split screens", body: "Two compositions side by side." });
    const id = (posted.value!.idea as { id: number }).id;
    const dup = await call(s.token, "POST", "/api/ideas", { title: "OpenAPI-described idea about split screens", body: "Two compositions side by side." });
    expect(dup.res.status).toBe(409);
    await call(null, "GET", "/api/ideas");
    await call(s.token, "GET", "/api/ideas?sort=new&limit=1");
    await call(null, "POST", "/api/ideas/check", { title: "split screens" });
    await call(s.token, "GET", `/api/ideas/${id}`);
    await call(s.token, "POST", `/api/ideas/${id}/vote`);
    await call(s.token, "POST", `/api/ideas/${id}/comments`, { body: "Useful for comparisons." });
    const enriched = await call(s.token, "POST", `/api/ideas/${id}/enrich`, { kind: "use_case", body: "Before/after product shots." });
    await call(s.token, "POST", `/api/enrichments/${(enriched.value!.enrichment as { id: number }).id}/vote`);
    await call(s.token, "GET", `/api/ideas/${id}`);
    await call(s.token, "PATCH", `/api/ideas/${id}`, { status: "building" }); // 403: not an admin
    await call(null, "GET", "/api/groups");
    await call(null, "GET", "/api/metrics");
    await call(null, "GET", "/api/research");
    await call(null, "GET", "/api/research/none-such");
    const bot = await issueBot(s.token, "walker");
    await call(s.token, "GET", "/api/bots");
    await call(bot.key, "POST", "/api/research", { slug: "openapi-walk", name: "Walk", body_md: "# Walk" });
    await call(null, "GET", "/api/research/openapi-walk");
    await call(bot.key, "PUT", "/api/research/openapi-walk", { name: "Walk 2", body_md: "# Walk 2" });
    await call(bot.key, "DELETE", "/api/research/openapi-walk");
    await call(s.token, "DELETE", `/api/bots/${bot.bot.id}`);
  });

  it("a walk with a render node: snapshot, check, preview, a render to done, its download, and the node protocol", async () => {
    const key = await registerNode("openapi-node");
    const s = await signIn("openapi-node-walk");
    await createProject(s.token, "Nodewalk");
    const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

    const snapping = api(s.token, "POST", "/api/projects/nodewalk/snapshot", { at: [1], end: false });
    const snap = await awaitJob(key, "snapshot");
    await callNode(key, "GET", `/jobs/${snap.id}/files`);
    await callNode(key, "GET", `/jobs/${snap.id}/files/index.html`);
    await callNode(key, "PUT", `/jobs/${snap.id}/files/snapshots/frame-01-1.000s.png`, png, { "Content-Type": "image/png" });
    await callNode(key, "PUT", `/jobs/${snap.id}/files/index.html`, png, { "Content-Type": "image/png" });
    await callNode(key, "POST", `/jobs/${snap.id}/progress`, { lines: ["capturing"], stage: "capturing" });
    await callNode(key, "POST", `/jobs/${snap.id}/complete`, { ok: true, result: { snapshots: [{ path: "snapshots/frame-01-1.000s.png" }], log: ["captured"] } });
    expect((await validated("POST", "/api/projects/nodewalk/snapshot", await snapping)).res.status).toBe(200);

    const failing = api(s.token, "POST", "/api/projects/nodewalk/snapshot", {});
    const bad = await awaitJob(key, "snapshot");
    await callNode(key, "POST", `/jobs/${bad.id}/complete`, { ok: false, error: "composition has no root", result: { snapshots: [], log: ["loading"] } });
    expect((await validated("POST", "/api/projects/nodewalk/snapshot", await failing)).res.status).toBe(422);

    const checking = api(s.token, "POST", "/api/projects/nodewalk/check", { samples: 2 });
    const check = await awaitJob(key, "check");
    const warning = { code: "off-canvas", severity: "warning", message: "#x is partly outside", file: "index.html", selector: "#x", time: 1, box: { x: 1900, y: 0, width: 100, height: 50 } };
    await callNode(key, "POST", `/jobs/${check.id}/complete`, { ok: true, result: { runtime: [], layout: [warning], times: [1, 3] } });
    expect((await validated("POST", "/api/projects/nodewalk/check", await checking)).res.status).toBe(200);

    const previewing = api(s.token, "POST", "/api/projects/nodewalk/preview");
    const preview = await awaitJob(key, "preview");
    await callNode(key, "POST", `/jobs/${preview.id}/preview`, { port: 3005 });
    expect((await validated("POST", "/api/projects/nodewalk/preview", await previewing)).value).toMatchObject({ running: true, port: 3005 });
    await call(s.token, "DELETE", "/api/projects/nodewalk/preview");

    const started = await call(s.token, "POST", "/api/projects/nodewalk/render?wait=0", { format: "mp4", quality: "draft" });
    const claimed = await callNode(key, "POST", "/jobs/claim?wait=0", { kinds: ["render"] });
    expect((claimed.value!.job as { id: string }).id).toBe(started.value!.id);
    await callNode(key, "POST", "/jobs/claim?wait=0", { kinds: ["render"] }); // 204: nothing left
    const video = new Uint8Array(64).map((_, i) => i);
    await callNode(key, "POST", `/jobs/${started.value!.id}/progress`, { lines: ["frame 1/2 (50%), 10.0 fps, ETA 1 s"] });
    await callNode(key, "PUT", `/jobs/${started.value!.id}/output`, video, { "Content-Type": "video/mp4" });
    await callNode(key, "POST", `/jobs/${started.value!.id}/complete`, { ok: true });
    const done = await call(s.token, "GET", `/api/renders/${started.value!.id}`);
    expect(done.value).toMatchObject({ status: "done", size: 64 });
    const filename = done.value!.filename as string;
    await call(s.token, "GET", "/api/projects/nodewalk/render");
    await call(s.token, "GET", "/api/renders?limit=1");
    await call(s.token, "POST", "/api/projects/nodewalk/share", { render: filename });
    const file = await call(s.token, "GET", `/renders/${filename}?download=1`);
    expect(file.res.headers.get("Content-Type")).toBe("video/mp4");
    await call(s.token, "GET", `/renders/${filename}`, undefined, { Range: "bytes=0-9" });
    await call(s.token, "DELETE", `/renders/${filename}`);
    await call(s.token, "GET", `/renders/${filename}`);
    await call(s.token, "DELETE", "/api/projects/nodewalk");
  }, 30_000);
});
