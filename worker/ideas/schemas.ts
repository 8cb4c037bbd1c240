// Request bodies and list filters of the idea board, parsed from `unknown`. Each schema is built on first use
// (lazy): most isolates never serve the board, and building these was a measurable part of startup.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { querySchema } from "../http/query.ts";

export const IDEA_STATUSES = ["open", "building", "shipped"] as const;
export const ENRICHMENT_KINDS = ["note", "use_case", "angle", "constraint"] as const;
export const IDEA_SORTS = ["hot", "top", "new"] as const;

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalName = () => z.string().trim().min(1).max(60).optional();
export const groupSlug = lazy(() => z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, "must be a slug: a-z, 0-9 and -"));

export const createIdeaBody = lazy(() =>
  z.object({
    title: text(200),
    body: text(10_000),
    source: z.string().trim().max(500).optional(),
    name: optionalName(),
    force: z.boolean().optional(),
    group: groupSlug().optional(),
  }),
);

export const checkIdeaBody = lazy(() =>
  z.object({
    title: z.string().max(200),
    body: z.string().max(10_000).optional(),
  }),
);

export const enrichmentBody = lazy(() =>
  z.object({
    kind: z.enum(ENRICHMENT_KINDS),
    body: text(5_000),
    name: optionalName(),
  }),
);

export const commentBody = lazy(() =>
  z.object({
    body: text(5_000),
    name: optionalName(),
  }),
);

/** PATCH /api/comments/:id: the author rewrites the text. */
export const editCommentBody = lazy(() =>
  z.strictObject({ body: commentBody().shape.body }),
);

/** Status and group are the admins'; title and body the author's. */
export const patchIdeaBody = lazy(() =>
  z
    .object({
      status: z.enum(IDEA_STATUSES).optional(),
      group: groupSlug().nullable().optional(),
      title: text(200).optional(),
      body: text(10_000).optional(),
    })
    .refine((b) => b.status !== undefined || b.group !== undefined || b.title !== undefined || b.body !== undefined, "give status, group, title or body"),
);

const intParam = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((n) => n ?? fallback);

/** `next` is the cursor a page returned (the same place as its nextOffset); give it or offset, not both. */
export const listIdeasQuery = lazy(() =>
  querySchema({
    sort: z.enum(IDEA_SORTS).optional().transform((s) => s ?? "hot"),
    group: groupSlug().optional(),
    status: z.enum(IDEA_STATUSES).optional(),
    limit: intParam(1, 100, 20),
    offset: intParam(0, 100_000, 0),
    next: z.string().max(500).optional(),
  }),
);
export type ListIdeasQuery = z.output<ReturnType<typeof listIdeasQuery>>;

/** Path ids are positive integers of at most 16 digits; anything else names nothing. */
const ID_PATTERN = /^[1-9]\d{0,15}$/;
export const ideaIdParam = lazy(() => z.string().regex(ID_PATTERN).transform(Number));

/** The `:id` of a board route: a malformed one is a 404 "no such <what>", like an id that does not exist (route.ts). */
const boardIdParams = (what: string) => z.object({ id: z.string().regex(ID_PATTERN, `no such ${what}`).transform(Number) });
export const ideaIdParams = lazy(() => boardIdParams("idea"));
export const enrichmentIdParams = lazy(() => boardIdParams("enrichment"));
export const commentIdParams = lazy(() => boardIdParams("comment"));
