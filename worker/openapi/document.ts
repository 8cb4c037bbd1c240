// GET /api/openapi.json: OpenAPI 3.1 generated with @asteasolutions/zod-to-openapi from the operation lists, whose
// request schemas are the ones the routes validate with. Built once per base URL and version.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import type { ResponseConfig, RouteConfig } from "@asteasolutions/zod-to-openapi";
import { codeOfStatus, ERROR_CODES } from "../http/errors.ts";
import { OPERATIONS } from "./operations.ts";
import { WEBHOOKS } from "./webhooks.ts";
import { errorSchema, type Access, type Operation } from "./operation.ts";

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

/** The error statuses an operation declares: its own, plus 401 where a credential is required and 400 for queries. */
function errorStatuses(op: Operation): number[] {
  const statuses = new Set(op.errors ?? []);
  if (op.access === "user" || op.access === "writer" || op.access === "node") statuses.add(401);
  if (op.query || op.body) statuses.add(400);
  return [...statuses].filter((s) => !(s in op.responses)).sort();
}

function routeOf(op: Operation): RouteConfig {
  const responses: Record<number, ResponseConfig> = {};
  for (const [status, response] of Object.entries(op.responses)) {
    const body = response.body;
    responses[Number(status)] = {
      description: response.description,
      ...(response.headers ? { headers: Object.fromEntries(Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: "string" } }])) } : {}),
      ...(body ? { content: "json" in body ? { "application/json": { schema: body.json } } : { [body.media]: { schema: body.schema ?? { type: "string" } } } } : {}),
    };
  }
  for (const status of errorStatuses(op)) {
    responses[status] = { description: `error (code ${codeOfStatus(status)} or a more specific one)`, content: { "application/json": { schema: errorSchema } } };
  }
  const body = op.body;
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    security: SECURITY[op.access],
    request: {
      ...(op.params ? { params: op.params } : {}),
      ...(op.query ? { query: op.query as never } : {}),
      ...(op.headers ? { headers: op.headers } : {}),
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

export function openApiDocument(baseUrl: string, version: string) {
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
  for (const op of OPERATIONS) registry.registerPath(routeOf(op));
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
