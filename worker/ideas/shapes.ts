// What the idea board answers, as the OpenAPI document declares it (and openapi.test.ts checks real answers
// against). Built on first use: only the document, the tests and the MCP tools' output schemas need them.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { errorSchema } from "../openapi/operation.ts";
import { isoTime } from "../openapi/shapes.ts";
import { ENRICHMENT_KINDS, IDEA_STATUSES } from "./schemas.ts";

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

export const comment = lazy(() => z.object({ id: z.number().int(), ideaId: z.number().int(), body: z.string(), name: z.string(), isBot: z.boolean(), createdAt: isoTime() }));
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

