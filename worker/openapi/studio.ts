// Health, docs, identity, sign-in and public counters.
import * as z from "zod";
import { devLoginBody } from "../auth/sign-in-routes.ts";
import { pageViewQuery } from "../stats/stats-routes.ts";
import { identity, publicUser } from "./shapes.ts";
import { json, type Operation } from "./operation.ts";

const health = z.object({
  ok: z.literal(true),
  version: z.string(),
  build: z
    .object({ id: z.string(), tag: z.string().nullable(), uploadedAt: z.string().nullable() })
    .nullable()
    .describe("The deployed Worker version (wrangler's version id, tag and upload time); null where not configured"),
  baseUrl: z.string(),
  login: z.object({ github: z.boolean(), google: z.boolean(), dev: z.boolean() }),
  authorized: z.boolean(),
  user: publicUser.nullable(),
});

const stats = z.object({
  pageViews: z.number().int(),
  uniqueVisitors: z.number().int(),
  returningVisitors: z.number().int(),
  animationsCreated: z.number().int(),
  animationsNow: z.number().int(),
  rendersCompleted: z.number().int(),
  users: z.number().int(),
});

const redirect = (description: string) => ({ description, headers: { Location: "where to go next" } });

export const studioOperations: Operation[] = [
  { method: "get", path: "/api/ping", operationId: "ping", summary: "Liveness probe (no storage work)", tag: "studio", access: "public", responses: { 200: json(z.object({ ok: z.literal(true) }), "alive") } },
  { method: "get", path: "/api/health", operationId: "getHealth", summary: "Health, version, login flags and the caller", tag: "studio", access: "optional", responses: { 200: json(health, "health") } },
  { method: "get", path: "/api/docs", operationId: "getDocs", summary: "The API reference as text (examples carry the caller's token)", tag: "studio", access: "optional", responses: { 200: { description: "the reference", body: { media: "text/plain", schema: z.string() } } } },
  { method: "get", path: "/api/openapi.json", operationId: "getOpenApi", summary: "This OpenAPI 3.1 document", tag: "studio", access: "public", responses: { 200: json(z.object({ openapi: z.string() }).loose(), "the document") } },
  { method: "get", path: "/api/reference", operationId: "getReference", summary: "Interactive API reference (Swagger UI, served from the studio itself) for this document", tag: "studio", access: "public", responses: { 200: { description: "an HTML page", body: { media: "text/html", schema: z.string() } } } },
  { method: "get", path: "/api/me", operationId: "getMe", summary: "The caller's identity, token and a curl example", tag: "identity", access: "user", responses: { 200: json(identity, "the caller") } },
  {
    method: "post", path: "/api/me/token/rotate", operationId: "rotateToken", summary: "Replace the token; the old one stops working at once, and every app connected through OAuth is disconnected", tag: "identity", access: "user",
    responses: { 200: json(z.object({ rotated: z.literal(true), token: z.string(), curl: z.string(), appsRevoked: z.number().int().describe("OAuth grants revoked") }), "the new token") },
  },
  { method: "get", path: "/api/stats", operationId: "getStats", summary: "Public counters", tag: "studio", access: "public", responses: { 200: json(stats, "counters") } },
  {
    method: "post", path: "/api/stats/view", operationId: "recordPageView", summary: "Page-view beacon; counts once per visitor, page and 30 minutes", tag: "studio", access: "public", query: pageViewQuery,
    responses: { 200: json(z.object({ recorded: z.boolean() }), "whether the view counted") },
  },
  {
    method: "post", path: "/auth/dev/login", operationId: "devLogin", summary: "Development sign-in (when enabled); sets the session cookie", tag: "identity", access: "public", body: { json: devLoginBody, required: true },
    responses: { 200: json(identity, "signed in") }, errors: [400, 404],
  },
  { method: "post", path: "/auth/logout", operationId: "logout", summary: "Sign out: ends the session cookie", tag: "identity", access: "public", responses: { 200: json(z.object({ signedOut: z.literal(true) }), "signed out") } },
  { method: "get", path: "/auth/github", operationId: "signInGithub", summary: "Start GitHub sign-in", tag: "identity", access: "public", responses: { 302: redirect("to GitHub") }, errors: [404] },
  { method: "get", path: "/auth/github/callback", operationId: "githubCallback", summary: "GitHub's redirect back", tag: "identity", access: "public", responses: { 302: redirect("to the dashboard") }, errors: [400, 502] },
  { method: "get", path: "/auth/google", operationId: "signInGoogle", summary: "Start Google sign-in", tag: "identity", access: "public", responses: { 302: redirect("to Google") }, errors: [404] },
  { method: "get", path: "/auth/google/callback", operationId: "googleCallback", summary: "Google's redirect back", tag: "identity", access: "public", responses: { 302: redirect("to the dashboard") }, errors: [400, 502] },
];
