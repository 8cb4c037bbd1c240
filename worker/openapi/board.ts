// The idea board: ideas, votes, enrichments, comments, groups, bot keys, metrics and research records.
import * as z from "zod";
import {
  checkIdeaBody,
  commentBody,
  editCommentBody,
  createIdeaBody,
  ENRICHMENT_KINDS,
  enrichmentBody,
  IDEA_SORTS,
  IDEA_STATUSES,
  listIdeasQuery,
  patchIdeaBody,
} from "../ideas/schemas.ts";
import { researchBody, researchListQuery, researchPutBody } from "../research/schemas.ts";
import { createBotBody } from "../ideas/bot-routes.ts";
import { createGroupBody } from "../ideas/group-routes.ts";
import { errorSchema, json, pathParams, type Operation } from "./operation.ts";
import { isoTime, nextCursor } from "./shapes.ts";

export const idea = z
  .object({
    id: z.number().int(),
    title: z.string(),
    body: z.string(),
    source: z.string().nullable(),
    name: z.string(),
    isBot: z.boolean(),
    group: z.string().nullable(),
    status: z.enum(IDEA_STATUSES),
    votes: z.number().int(),
    voted: z.boolean().describe("whether the caller (their person) voted"),
    enrichments: z.number().int(),
    comments: z.number().int(),
    createdAt: isoTime,
  })
  .meta({ id: "Idea" });

const enrichment = z.object({
  id: z.number().int(),
  ideaId: z.number().int(),
  kind: z.enum(ENRICHMENT_KINDS),
  body: z.string(),
  name: z.string(),
  isBot: z.boolean(),
  votes: z.number().int(),
  voted: z.boolean(),
  createdAt: isoTime,
});
const comment = z.object({ id: z.number().int(), ideaId: z.number().int(), body: z.string(), name: z.string(), isBot: z.boolean(), createdAt: isoTime });
const group = z.object({ slug: z.string(), name: z.string(), ideas: z.number().int(), createdAt: isoTime });
const bot = z.object({ id: z.string(), name: z.string(), createdAt: isoTime });
const vote = z.object({ id: z.number().int(), voted: z.boolean(), votes: z.number().int() });
const research = z
  .object({
    id: z.union([z.number(), z.string()]),
    slug: z.string(),
    kind: z.string(),
    name: z.string(),
    summary: z.string().nullable(),
    body_md: z.string(),
    lines: z.array(z.string()),
    author: z.string().nullable(),
    sources: z.unknown(),
    related: z.unknown(),
    verified_at: z.string().nullable(),
    updated_at: z.unknown(),
    cover_url: z.string().nullable(),
  })
  .meta({ id: "ResearchRecord" });
const metrics = z.object({
  ideas: z.object({ total: z.number().int(), byStatus: z.record(z.string(), z.number()), byGroup: z.record(z.string(), z.number()), ungrouped: z.number().int(), postedToday: z.number().int(), postedThisWeek: z.number().int() }),
  votes: z.object({ ideas: z.number().int(), enrichments: z.number().int() }),
  enrichments: z.number().int(),
  comments: z.number().int(),
  active: z.object({ windowDays: z.number().int(), humans: z.number().int(), bots: z.number().int() }),
  duplicatesRefused: z.number().int(),
});

const id = pathParams("id");
const slug = pathParams("slug");
const idempotencyKey = z.object({ "Idempotency-Key": z.string().optional() });
const duplicate = errorSchema.extend({ exists: z.literal(true), idea, score: z.number() });

/** X-D1-Bookmark (worker/db/read-session.ts): answered by every board route but the bot keys; sent back, reads see your writes. */
const bookmarkHeader = z.object({ "X-D1-Bookmark": z.string().optional().describe("the X-D1-Bookmark of an earlier answer, to read your own writes") });
const BOOKMARK_ANSWER = { "X-D1-Bookmark": "the database position this answer saw; send it back to read your own writes" };

/** An operation with the bookmark header declared on its request and on its answers. */
function withBookmark(op: Operation): Operation {
  return {
    ...op,
    headers: op.headers ? op.headers.extend(bookmarkHeader.shape) : bookmarkHeader,
    responses: Object.fromEntries(Object.entries(op.responses).map(([status, response]) => [status, { ...response, headers: { ...response.headers, ...BOOKMARK_ANSWER } }])),
  };
}

const operations: Operation[] = [
  {
    method: "get", path: "/api/ideas", operationId: "listIdeas", summary: `Ideas, sorted (${IDEA_SORTS.join(", ")}), filtered by group and status, paged with limit and next (or offset)`, tag: "ideas", access: "optional", query: listIdeasQuery,
    responses: { 200: json(z.object({ ideas: z.array(idea), sort: z.enum(IDEA_SORTS), limit: z.number().int(), offset: z.number().int(), nextOffset: z.number().int().nullable(), next: nextCursor }), "a page of ideas") }, errors: [400, 404],
  },
  {
    method: "post", path: "/api/ideas", operationId: "postIdea", summary: "Post an idea; 409 with the existing one unless force", tag: "ideas", access: "writer", body: { json: createIdeaBody, required: true }, headers: idempotencyKey,
    responses: { 201: json(z.object({ created: z.literal(true), idea }), "posted"), 409: json(duplicate, "a similar idea exists (code duplicate_idea): vote for it instead") },
    errors: [400, 403, 404, 422, 429],
  },
  {
    method: "post", path: "/api/ideas/check", operationId: "checkIdea", summary: "Similar ideas, best first (read-only)", tag: "ideas", access: "optional", body: { json: checkIdeaBody, required: true },
    responses: { 200: json(z.object({ duplicate: z.boolean(), similar: z.array(z.object({ score: z.number(), idea })) }), "similar ideas") }, errors: [400],
  },
  {
    method: "get", path: "/api/ideas/{id}", operationId: "getIdea", summary: "One idea with its enrichments and comments", tag: "ideas", access: "optional", params: id,
    responses: { 200: json(z.object({ idea, enrichments: z.array(enrichment), comments: z.array(comment) }), "the idea") }, errors: [404],
  },
  {
    method: "patch", path: "/api/ideas/{id}", operationId: "changeIdea", summary: "Change status or group (admins)", tag: "ideas", access: "writer", params: id, body: { json: patchIdeaBody, required: true },
    responses: { 200: json(z.object({ idea }), "changed") }, errors: [400, 403, 404, 409, 429],
  },
  {
    method: "delete", path: "/api/ideas/{id}", operationId: "deleteIdea", summary: "Delete an idea with its votes, enrichments and comments (its author or an admin)", tag: "ideas", access: "writer", params: id,
    responses: { 200: json(z.object({ deleted: z.literal(true), id: z.number().int() }), "deleted") }, errors: [403, 404, 429],
  },
  {
    method: "patch", path: "/api/comments/{id}", operationId: "editComment", summary: "Rewrite a comment (its author)", tag: "ideas", access: "writer", params: id, body: { json: editCommentBody, required: true },
    responses: { 200: json(z.object({ comment }), "changed") }, errors: [400, 403, 404, 429],
  },
  {
    method: "delete", path: "/api/comments/{id}", operationId: "deleteComment", summary: "Delete a comment (its author or an admin)", tag: "ideas", access: "writer", params: id,
    responses: { 200: json(z.object({ deleted: z.literal(true), id: z.number().int() }), "deleted") }, errors: [403, 404, 429],
  },
  { method: "post", path: "/api/ideas/{id}/vote", operationId: "voteIdea", summary: "Toggle the caller's vote (a bot key's vote only adds)", tag: "ideas", access: "writer", params: id, responses: { 200: json(vote, "the vote") }, errors: [403, 404, 429] },
  {
    method: "post", path: "/api/ideas/{id}/enrich", operationId: "enrichIdea", summary: "Add an enrichment", tag: "ideas", access: "writer", params: id, body: { json: enrichmentBody, required: true },
    responses: { 201: json(z.object({ enrichment }), "added") }, errors: [400, 403, 404, 429],
  },
  {
    method: "post", path: "/api/ideas/{id}/comments", operationId: "commentIdea", summary: "Add a comment", tag: "ideas", access: "writer", params: id, body: { json: commentBody, required: true }, headers: idempotencyKey,
    responses: { 201: json(z.object({ comment }), "added") }, errors: [400, 403, 404, 422, 429],
  },
  { method: "post", path: "/api/enrichments/{id}/vote", operationId: "voteEnrichment", summary: "Toggle the caller's vote on an enrichment", tag: "ideas", access: "writer", params: id, responses: { 200: json(vote, "the vote") }, errors: [403, 404, 429] },
  { method: "get", path: "/api/groups", operationId: "listGroups", summary: "Idea groups", tag: "ideas", access: "public", responses: { 200: json(z.object({ groups: z.array(group) }), "the groups") } },
  {
    method: "post", path: "/api/groups", operationId: "createGroup", summary: "Create a group (admins)", tag: "ideas", access: "writer", body: { json: createGroupBody, required: true },
    responses: { 201: json(z.object({ group }), "created") }, errors: [400, 403, 409, 429],
  },
  { method: "get", path: "/api/bots", operationId: "listBots", summary: "The caller's bots", tag: "bots", access: "user", responses: { 200: json(z.object({ bots: z.array(bot) }), "the bots") }, errors: [403] },
  {
    method: "post", path: "/api/bots", operationId: "issueBotKey", summary: "Issue a bot key (shown once; at most 5 per person)", tag: "bots", access: "user", body: { json: createBotBody, required: true },
    responses: { 201: json(z.object({ bot, key: z.string().describe("the bot key (stb_…), shown only now") }), "issued") }, errors: [400, 403, 409, 429],
  },
  {
    method: "delete", path: "/api/bots/{id}", operationId: "revokeBotKey", summary: "Revoke a bot key", tag: "bots", access: "user", params: id,
    responses: { 200: json(z.object({ revoked: z.literal(true), id: z.string() }), "revoked") }, errors: [403, 404, 429],
  },
  { method: "get", path: "/api/metrics", operationId: "getMetrics", summary: "Idea-board metrics", tag: "ideas", access: "public", responses: { 200: json(metrics, "the numbers") } },
  {
    method: "get", path: "/api/research", operationId: "listResearch", summary: "Research records (filter by kind)", tag: "research", access: "public", query: researchListQuery,
    responses: { 200: json(z.object({ records: z.array(research) }).loose(), "the records") }, errors: [400],
  },
  { method: "get", path: "/api/research/{slug}", operationId: "getResearch", summary: "One research record", tag: "research", access: "public", params: slug, responses: { 200: json(research, "the record") }, errors: [404] },
  {
    method: "post", path: "/api/research", operationId: "createResearch", summary: "Create a research record (bots and admins)", tag: "research", access: "writer", body: { json: researchBody, required: true },
    responses: { 201: json(research, "created") }, errors: [400, 403, 409, 429],
  },
  {
    method: "put", path: "/api/research/{slug}", operationId: "putResearch", summary: "Create (bots and admins) or replace (its author or an admin) a research record", tag: "research", access: "writer", params: slug,
    body: { json: researchPutBody, required: true }, responses: { 200: json(research, "replaced"), 201: json(research, "created") }, errors: [400, 403, 409, 429],
  },
  {
    method: "delete", path: "/api/research/{slug}", operationId: "deleteResearch", summary: "Delete a research record (its author or an admin)", tag: "research", access: "writer", params: slug,
    responses: { 200: json(z.object({ deleted: z.literal(true) }).loose(), "deleted") }, errors: [403, 404, 429],
  },
];

export const boardOperations: Operation[] = operations.map((op) => (op.tag === "bots" ? op : withBookmark(op)));
