// Research records as the seed defines them. `sources` and `related` are JSON (any shape, or null) since the seed
// leaves their element types open; `verified_at` is an ISO 8601 string or null. Built on first use (lazy): most
// isolates never serve research, and building these was a measurable part of startup.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { querySchema } from "../http/query.ts";

const slug = () => z.string().regex(/^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/, "must be a slug: a-z, 0-9 and -");
const json = (): z.ZodType<unknown> => z.unknown();
const httpUrl = () =>
  z
    .string()
    .url()
    .refine((u) => /^https?:\/\//i.test(u), "must be an http(s) URL");

export const researchBody = lazy(() => z.object({
  slug: slug(),
  kind: z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, "must be a lower-case word").default("research"),
  name: z.string().trim().min(1).max(200),
  summary: z.string().max(2_000).nullable().default(null),
  body_md: z.string().max(200_000),
  lines: z.array(z.string().max(500)).max(50).default([]),
  author: z.string().trim().min(1).max(80).optional(),
  sources: json().nullable().default(null),
  related: json().nullable().default(null),
  verified_at: z.iso.datetime({ offset: true }).nullable().default(null),
  cover_url: httpUrl().nullable().default(null),
}));

/** PUT takes the slug from the path; a slug in the body must agree with it. */
export const researchPutBody = lazy(() => researchBody().extend({ slug: slug().optional() }));

export const researchListQuery = lazy(() =>
  querySchema({
    kind: z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, "must be a lower-case word").optional(),
  }),
);
