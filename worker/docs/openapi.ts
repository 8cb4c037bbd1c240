// GET /api/openapi.json: the endpoints with the zod schemas that validate their request bodies.
import { z } from "zod";
import { renderOptionsSchema } from "../../core/render/render-options.ts";
import { checkIdeaBody, commentBody, createIdeaBody, enrichmentBody, patchIdeaBody } from "../ideas/schemas.ts";
import { createProjectBody, shareBody } from "../projects/schemas.ts";
import { researchBody } from "../research/schemas.ts";
import { devLoginBody } from "../routes/auth.ts";
import { checkBody, snapshotBody } from "../../core/browser/browser-options.ts";
import { lintBody } from "../routes/lint.ts";

interface Operation {
  method: "get" | "post" | "put" | "delete" | "patch";
  path: string;
  summary: string;
  auth: "token" | "optional" | "none" | "node" | "session-or-bot";
  body?: z.ZodType;
  rawBody?: boolean;
}

const STUDIO: Operation[] = [
  { method: "get", path: "/api/health", summary: "Health, version, login flags and the caller", auth: "optional" },
  { method: "get", path: "/api/docs", summary: "This API reference as text", auth: "optional" },
  { method: "get", path: "/api/me", summary: "The caller's identity, token and a curl example", auth: "token" },
  { method: "post", path: "/api/me/token/rotate", summary: "Replace the token; the old one stops working at once", auth: "token" },
  { method: "get", path: "/api/stats", summary: "Public counters", auth: "none" },
  { method: "post", path: "/api/stats/view", summary: "Page-view beacon (?page=<path>); counts once per visitor, page and 30 minutes", auth: "none" },
  { method: "post", path: "/auth/dev/login", summary: "Development sign-in (when enabled)", auth: "none", body: devLoginBody },
  { method: "get", path: "/api/projects", summary: "The caller's projects", auth: "token" },
  { method: "post", path: "/api/projects", summary: "Create a project", auth: "token", body: createProjectBody },
  { method: "get", path: "/api/projects/{slug}", summary: "A project with meta, files and a one-hour contentUrl", auth: "token" },
  { method: "post", path: "/api/projects/{slug}/share", summary: "A read-only link to the project or one of its renders on the content origin", auth: "token", body: shareBody },
  { method: "delete", path: "/api/projects/{slug}", summary: "Delete a project (stops render and preview)", auth: "token" },
  { method: "get", path: "/api/projects/{slug}/files", summary: "Recursive file listing", auth: "token" },
  { method: "get", path: "/api/projects/{slug}/files/{path}", summary: "Read a file (Range, ?download; HTML, SVG, scripts and other active types always as a sandboxed attachment)", auth: "token" },
  { method: "put", path: "/api/projects/{slug}/files/{path}", summary: "Write a file (raw bytes, or ?encoding=base64)", auth: "token", rawBody: true },
  { method: "post", path: "/api/projects/{slug}/files/{path}", summary: "Alias of PUT", auth: "token", rawBody: true },
  { method: "delete", path: "/api/projects/{slug}/files/{path}", summary: "Delete a file or directory", auth: "token" },
  { method: "post", path: "/api/projects/{slug}/lint", summary: "Lint the project", auth: "token", body: lintBody },
  { method: "post", path: "/api/projects/{slug}/check", summary: "Lint, headless runtime check and layout inspection", auth: "token", body: checkBody },
  { method: "post", path: "/api/projects/{slug}/snapshot", summary: "PNG frames and a contact sheet in snapshots/", auth: "token", body: snapshotBody },
  { method: "post", path: "/api/projects/{slug}/preview", summary: "Start the project's preview server", auth: "token" },
  { method: "get", path: "/api/projects/{slug}/preview", summary: "Preview state", auth: "token" },
  { method: "delete", path: "/api/projects/{slug}/preview", summary: "Stop the preview server", auth: "token" },
  { method: "post", path: "/api/projects/{slug}/render", summary: "Start a render (one at a time)", auth: "token", body: renderOptionsSchema },
  { method: "get", path: "/api/projects/{slug}/render", summary: "Current or last render with its log", auth: "token" },
  { method: "delete", path: "/api/projects/{slug}/render", summary: "Cancel the render", auth: "token" },
  { method: "get", path: "/api/projects/{slug}/render/events", summary: "Server-Sent Events: snapshot, start, line, end", auth: "token" },
  { method: "get", path: "/api/renders", summary: "The caller's rendered files, newest first", auth: "token" },
  { method: "get", path: "/renders/{filename}", summary: "Download a render (Range, ?download)", auth: "token" },
  { method: "delete", path: "/renders/{filename}", summary: "Delete a render", auth: "token" },
];

const IDEA_BOARD: Operation[] = [
  { method: "get", path: "/api/ideas", summary: "Ideas (sort, group, status, limit, offset)", auth: "optional" },
  { method: "post", path: "/api/ideas", summary: "Post an idea (409 with the existing one unless force)", auth: "session-or-bot", body: createIdeaBody },
  { method: "post", path: "/api/ideas/check", summary: "Similar ideas, best first", auth: "none", body: checkIdeaBody },
  { method: "get", path: "/api/ideas/{id}", summary: "One idea with enrichments and comments", auth: "optional" },
  { method: "patch", path: "/api/ideas/{id}", summary: "Change status or group (admins)", auth: "session-or-bot", body: patchIdeaBody },
  { method: "post", path: "/api/ideas/{id}/vote", summary: "Toggle the caller's vote", auth: "session-or-bot" },
  { method: "post", path: "/api/ideas/{id}/enrich", summary: "Add an enrichment", auth: "session-or-bot", body: enrichmentBody },
  { method: "post", path: "/api/ideas/{id}/comments", summary: "Add a comment", auth: "session-or-bot", body: commentBody },
  { method: "post", path: "/api/enrichments/{id}/vote", summary: "Toggle the caller's vote on an enrichment", auth: "session-or-bot" },
  { method: "get", path: "/api/groups", summary: "Idea groups", auth: "none" },
  { method: "post", path: "/api/groups", summary: "Create a group (admins)", auth: "session-or-bot" },
  { method: "get", path: "/api/bots", summary: "The caller's bots", auth: "token" },
  { method: "post", path: "/api/bots", summary: "Issue a bot key (shown once)", auth: "token" },
  { method: "delete", path: "/api/bots/{id}", summary: "Revoke a bot key", auth: "token" },
  { method: "get", path: "/api/metrics", summary: "Idea-board metrics", auth: "none" },
  { method: "get", path: "/api/research", summary: "Research records (filter by kind)", auth: "none" },
  { method: "get", path: "/api/research/{slug}", summary: "One research record", auth: "none" },
  { method: "post", path: "/api/research", summary: "Create a research record (bots and admins)", auth: "session-or-bot", body: researchBody },
  { method: "put", path: "/api/research/{slug}", summary: "Create (bots and admins) or replace (its author or an admin) a research record", auth: "session-or-bot", body: researchBody },
  { method: "delete", path: "/api/research/{slug}", summary: "Delete a research record (its author or an admin)", auth: "session-or-bot" },
];

const SECURITY: Record<Operation["auth"], Array<Record<string, string[]>> | undefined> = {
  token: [{ bearer: [] }, { header: [] }, { query: [] }],
  optional: [{}, { bearer: [] }],
  none: [],
  node: [{ bearer: [] }],
  "session-or-bot": [{ cookie: [] }, { bearer: [] }],
};

function schemaOf(body: z.ZodType) {
  return z.toJSONSchema(body, { io: "input", unrepresentable: "any" });
}

export function openApiDocument(baseUrl: string, version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of [...STUDIO, ...IDEA_BOARD]) {
    const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
    const requestBody = op.body
      ? { required: false, content: { "application/json": { schema: schemaOf(op.body) } } }
      : op.rawBody
        ? { required: true, content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } }
        : undefined;
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      ...(params.length ? { parameters: params } : {}),
      ...(requestBody ? { requestBody } : {}),
      ...(SECURITY[op.auth] ? { security: SECURITY[op.auth] } : {}),
      responses: {
        default: {
          description: "See /api/docs. Errors are { error: string }.",
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Studio API", version, description: `Full reference with examples: ${baseUrl}/api/docs` },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        header: { type: "apiKey", in: "header", name: "X-Studio-Token" },
        query: { type: "apiKey", in: "query", name: "token" },
        cookie: { type: "apiKey", in: "cookie", name: "studio_session" },
      },
    },
    paths,
  };
}
