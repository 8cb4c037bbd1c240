// What the idea board answers, as the OpenAPI document declares it (and openapi.test.ts checks real answers
// against). Built on first use: only the document, the tests and the MCP tools' output schemas need them.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { errorSchema } from "../openapi/operation.ts";
import { isoTime, nextCursor } from "../openapi/shapes.ts";
import { ENRICHMENT_KINDS, IDEA_SORTS, IDEA_STATUSES } from "./schemas.ts";

export const idea = lazy(() =>
  z
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
      createdAt: isoTime(),
      mine: z.boolean().optional().describe("posted by the caller (lists and the detail): they may edit and delete it"),
    })
    .meta({ id: "Idea" }),
);

export const enrichment = lazy(() =>
  z.object({
    id: z.number().int(),
    ideaId: z.number().int(),
    kind: z.enum(ENRICHMENT_KINDS),
    body: z.string(),
    name: z.string(),
    isBot: z.boolean(),
    votes: z.number().int(),
    voted: z.boolean(),
    createdAt: isoTime(),
  }),
);

export const comment = lazy(() =>
  z.object({
    id: z.number().int(),
    ideaId: z.number().int(),
    body: z.string(),
    name: z.string(),
    isBot: z.boolean(),
    createdAt: isoTime(),
    mine: z.boolean().optional().describe("written by the caller (the idea's detail): they may edit and delete it"),
  }),
);
export const group = lazy(() => z.object({ slug: z.string(), name: z.string(), ideas: z.number().int(), createdAt: isoTime() }));
export const bot = lazy(() => z.object({ id: z.string(), name: z.string(), createdAt: isoTime() }));
export const vote = lazy(() => z.object({ id: z.number().int(), voted: z.boolean(), votes: z.number().int() }));
export const deleted = lazy(() => z.object({ deleted: z.literal(true), id: z.number().int() }));

/** The 409 of a post like an existing idea: the error, and the idea to vote for instead. */
export const duplicate = lazy(() => errorSchema().extend({ exists: z.literal(true), idea: idea(), score: z.number() }));

export const metrics = lazy(() =>
  z.object({
    ideas: z.object({
      total: z.number().int(),
      byStatus: z.record(z.string(), z.number()),
      byGroup: z.record(z.string(), z.number()),
      ungrouped: z.number().int(),
      postedToday: z.number().int(),
      postedThisWeek: z.number().int(),
    }),
    votes: z.object({ ideas: z.number().int(), enrichments: z.number().int() }),
    enrichments: z.number().int(),
    comments: z.number().int(),
    active: z.object({ windowDays: z.number().int(), humans: z.number().int(), bots: z.number().int() }),
    duplicatesRefused: z.number().int(),
  }),
);

/** `admin`: the caller is an admin (status, group, deleting anything); the dashboard offers those controls. */
const callerIsAdmin = () => z.boolean().describe("the caller is an admin (ADMIN_USER_IDS)");

/** GET /api/ideas: one page of ideas. */
export const ideaPage = lazy(() =>
  z.object({ ideas: z.array(idea()), sort: z.enum(IDEA_SORTS), limit: z.number().int(), offset: z.number().int(), nextOffset: z.number().int().nullable(), next: nextCursor(), admin: callerIsAdmin() }),
);

/** GET /api/ideas/:id: the idea with its enrichments and comments. */
export const ideaDetail = lazy(() => z.object({ idea: idea(), enrichments: z.array(enrichment()), comments: z.array(comment()), admin: callerIsAdmin() }));

/** POST /api/ideas/check: similar ideas, best first; `duplicate` when the best is close enough to be refused. */
export const similarIdeas = lazy(() => z.object({ duplicate: z.boolean(), similar: z.array(z.object({ score: z.number(), idea: idea() })) }));

/** POST /api/ideas: the idea posted. */
export const createdIdea = lazy(() => z.object({ created: z.literal(true), idea: idea() }));

/** GET /api/bots. */
export const botList = lazy(() => z.object({ bots: z.array(bot()) }));

/** POST /api/bots: the bot, and its key this once. */
export const issuedBot = lazy(() => z.object({ bot: bot(), key: z.string().describe("the bot key (stb_…), shown only now") }));

/** GET /api/groups. */
export const groupList = lazy(() => z.object({ groups: z.array(group()) }));
