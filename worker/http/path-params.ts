// The path parameters routes declare, shared where many routes name the same one (`request: () => ({ params:
// slugParams() })`). route.ts checks them before the handler runs and types `input.param`; the OpenAPI document
// shows their schemas. A name the Worker makes in a known form (a project's slug, a render's or job's id) is declared
// with that form, so one of another form is the 404 a missing one gets, and the handler never runs; one of the
// right form that names nothing is the handler's 404, found where it is looked up. Plain strings where there is no
// such form (a research record's slug, a key id).
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from "../../core/paths/slugify.ts";

/** `:slug` as it comes: a research record's slug, and a project's where the route answers a missing one its own way (play's page, share's render link). */
export const slugParams = lazy(() => z.object({ slug: z.string() }));

/** `:id`: the id of what the path names (a render, a job, a key, an app). */
export const idParams = lazy(() => z.object({ id: z.string() }));

/** `:filename`: a rendered file's name (the handler checks its form). */
export const filenameParams = lazy(() => z.object({ filename: z.string() }));

/**
 * `:slug` of a project route: a slug has slugify's form (core/paths/slugify.ts), so one of another form names no
 * project, and answers as a missing one does (`no project named …`) before anything is looked up.
 */
export const projectSlugParams = lazy(() => {
  const missing = (issue: { input: unknown }) => `no project named ${String(issue.input)}`;
  return z.object({ slug: z.string().max(MAX_SLUG_LENGTH, { error: missing, abort: true }).regex(SLUG_PATTERN, { error: missing }) });
});

/** A render's id as the Worker makes it (crypto.randomUUID). */
const RENDER_ID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** `:id` of a render: one of another form is no render (`no render with id …`). */
export const renderIdParams = lazy(() =>
  z.object({ id: z.string().regex(new RegExp(`^${RENDER_ID}$`), { error: (issue) => `no render with id ${String(issue.input)}` }) }),
);

/** `:slug` and `:id` of a project's snapshot job (a job id, crypto.randomUUID): one of another form is no snapshot. */
export const snapshotIdParams = lazy(() =>
  projectSlugParams().extend({ id: z.string().regex(new RegExp(`^${RENDER_ID}$`), { error: (issue) => `no snapshot with id ${String(issue.input)}` }) }),
);

/**
 * `:id` of a node's job: a render's, snapshot's, check's or preview's id, or a render's segment (`<id>.s<index>`) or
 * join (`<id>.join`), as worker/renders/state.ts names them; one of another form is no job this node holds.
 */
export const jobIdParams = lazy(() =>
  z.object({ id: z.string().regex(new RegExp(`^${RENDER_ID}(\\.s(0|[1-9]\\d{0,5})|\\.join)?$`), "no such job held by this node") }),
);
