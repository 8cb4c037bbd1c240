// GET /api/openapi.json: OpenAPI 3.1 generated with @asteasolutions/zod-to-openapi from the app's own routes: each
// handler carries its declaration (worker/http/route.ts), whose request schemas are the ones it validates with.
// Built once per base URL and version, on the first request for it (this module is loaded then).
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import type { ResponseConfig, RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { Hono } from "hono";
import * as z from "zod";
import { codeOfStatus, ERROR_CODES } from "../http/errors.ts";
import { documentedOperations, type DocumentedOperation } from "./routes-of.ts";
import { WEBHOOKS } from "./webhooks.ts";
import { errorSchema, type Access, type Response } from "./operation.ts";

type Requirement = Record<string, string[]>;
const USER: Requirement[] = [{ bearerToken: [] }, { tokenHeader: [] }, { tokenQuery: [] }, { sessionCookie: [] }];
const SECURITY: Record<Access, Requirement[]> = {
  user: USER,
  writer: [...USER, { botKey: [] }],
  optional: [{}, ...USER, { botKey: [] }],
  public: [],
  node: [{ nodeKey: [] }],
};

const TAGS = [
  { name: "studio", description: "Health, docs and public counters" },
  { name: "identity", description: "Sign-in, the caller and their token" },
  { name: "projects", description: "Projects and share links" },
  { name: "files", description: "A project's files" },
  { name: "checks", description: "Lint, browser check, snapshots, preview" },
  { name: "renders", description: "Rendering and rendered files" },
  { name: "budgets", description: "Render-seconds used per day and the daily budgets on them" },
  { name: "play", description: "The player and redirects to the content origin" },
  { name: "ideas", description: "The idea board" },
  { name: "bots", description: "Idea-board bot keys" },
  { name: "research", description: "Research records" },
  { name: "node", description: "The render-node protocol (node keys only)" },
  { name: "nodes", description: "Render node keys, managed by admins" },
  { name: "agents", description: "The MCP server, /llms.txt and the agent skill" },
  { name: "webhooks", description: "Render webhooks: signing secret, project webhooks, deliveries" },
  { name: "oauth", description: "OAuth 2.1 for MCP clients: discovery, registration, tokens, consent" },
];

/** X-D1-Bookmark (worker/db/read-session.ts): sent back, reads see your writes. */
const bookmarkHeader = { "X-D1-Bookmark": z.string().optional().describe("the X-D1-Bookmark of an earlier answer, to read your own writes") };
/** Idempotency-Key (worker/http/idempotency.ts), on the routes that declare `idempotent`. */
const idempotencyHeader = { "Idempotency-Key": z.string().optional() };
const BOOKMARK_ANSWER = { "X-D1-Bookmark": "the database position this answer saw; send it back to read your own writes" };

function routeOf({ method, path, params, route }: DocumentedOperation): RouteConfig {
  const op = route.doc;
  const request = route.request();
  let declared: Record<number, Response> = route.responses();
  if (op.bookmark) declared = Object.fromEntries(Object.entries(declared).map(([status, response]) => [status, { ...response, headers: { ...response.headers, ...BOOKMARK_ANSWER } }]));
  const extra = { ...(op.idempotent ? idempotencyHeader : {}), ...(op.bookmark ? bookmarkHeader : {}) };
  const headers = Object.keys(extra).length ? (request.headers ?? z.object({})).extend(extra) : request.headers;
  // The error statuses: its own, plus 401 where a credential is required and 400 for inputs.
  const statuses = new Set(op.errors ?? []);
  if (op.access === "user" || op.access === "writer" || op.access === "node") statuses.add(401);
  if (request.query || request.body) statuses.add(400);
  const responses: Record<number, ResponseConfig> = {};
  for (const [status, response] of Object.entries(declared)) {
    const body = response.body;
    responses[Number(status)] = {
      description: response.description,
      ...(response.headers ? { headers: Object.fromEntries(Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: "string" } }])) } : {}),
      ...(body ? { content: "json" in body ? { "application/json": { schema: body.json } } : { [body.media]: { schema: body.schema ?? { type: "string" } } } } : {}),
    };
  }
  for (const status of [...statuses].filter((s) => !(s in declared)).sort()) {
    responses[status] = { description: `error (code ${codeOfStatus(status)} or a more specific one)`, content: { "application/json": { schema: errorSchema() } } };
  }
  const body = request.body;
  return {
    method,
    path,
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    security: SECURITY[op.access],
    request: {
      ...(params.length ? { params: z.object(Object.fromEntries(params.map((name) => [name, request.params?.shape[name] ?? z.string()]))) } : {}),
      ...(request.query ? { query: request.query as never } : {}),
      ...(headers ? { headers } : {}),
      ...(body
        ? {
            body:
              "json" in body
                ? { required: body.required ?? false, content: { "application/json": { schema: body.json } } }
                : { required: true, content: Object.fromEntries(body.raw.map((media) => [media, { schema: { type: "string", format: "binary" } }])) },
          }
        : {}),
    },
    responses,
  };
}

const cache = new Map<string, unknown>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function openApiDocument(app: Hono<any>, baseUrl: string, version: string) {
  const cacheKey = `${baseUrl} ${version}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "bearerToken", { type: "http", scheme: "bearer", description: "Personal token (stu_…) as Authorization: Bearer" });
  registry.registerComponent("securitySchemes", "tokenHeader", { type: "apiKey", in: "header", name: "X-Studio-Token", description: "Personal token in X-Studio-Token" });
  registry.registerComponent("securitySchemes", "tokenQuery", { type: "apiKey", in: "query", name: "token", description: "Personal token as ?token= (links, event streams)" });
  registry.registerComponent("securitySchemes", "sessionCookie", { type: "apiKey", in: "cookie", name: "studio_session", description: "The dashboard's session (same-origin writes only)" });
  registry.registerComponent("securitySchemes", "botKey", { type: "http", scheme: "bearer", description: "Idea-board bot key (stb_…): idea-board writes only" });
  registry.registerComponent("securitySchemes", "nodeKey", { type: "http", scheme: "bearer", description: "Render-node key (stn_…): the node protocol only" });
  for (const op of documentedOperations(app)) registry.registerPath(routeOf(op));
  // What the studio POSTs to a render's webhook (OpenAPI 3.1 `webhooks`): see webhooks.ts.
  for (const webhook of WEBHOOKS) registry.registerWebhook(webhook);
  const codes = Object.entries(ERROR_CODES)
    .map(([code, meaning]) => `- \`${code}\`: ${meaning}`)
    .join("\n");
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Studio API",
      version,
      description: `A hosted video studio for AI agents. Full reference with examples: ${baseUrl}/api/docs.\n\nErrors are { error, code }. Codes:\n${codes}`,
    },
    servers: [{ url: baseUrl }],
    tags: TAGS,
  });
  cache.set(cacheKey, document);
  return document;
}
