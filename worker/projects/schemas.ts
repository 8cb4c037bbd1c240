// Request bodies of the project endpoints.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { SHARE_LINK_MAX_SECONDS, SHARE_LINK_MIN_SECONDS } from "../capabilities/lifetimes.ts";
import { invisibleCharacterProblem } from "../../core/paths/invisible-characters.ts";
import { maxFileBytes } from "../http/config.ts";
import { pageParams, querySchema } from "../http/query.ts";
import type { BodyLimit } from "../http/read-body.ts";

/** A name people read (the project's display name, its creator): no control, bidirectional or invisible characters. */
const visibleName = () =>
  z.string().superRefine((value, ctx) => {
    const problem = invisibleCharacterProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const createProjectBody = lazy(() => z.object({
  name: z.string().trim().min(1, "name is required").max(100, "name is at most 100 characters").pipe(visibleName()),
  html: z.string().max(5_000_000, "html is at most 5 MB").optional(),
  duration: z.number().positive("duration must be a positive number of seconds").max(3600, "duration is at most 3600 seconds").optional(),
  files: z.record(z.string(), z.string()).optional(),
  /** Who created the project: an agent or tool name, recorded and shown, never used for access. */
  createdBy: z.string().trim().max(100, "createdBy is at most 100 characters").pipe(visibleName()).optional(),
}));
export type CreateProjectBody = z.output<ReturnType<typeof createProjectBody>>;

/**
 * POST /api/projects's body limit: the html and files map are files, so the whole body gets the upload limit (it
 * bounds every file in it too: a decoded string is never longer in UTF-8 than its JSON text).
 */
export const CREATE_PROJECT_BODY: BodyLimit = { bytes: maxFileBytes, hint: "; write large files with PUT /api/projects/:slug/files/<path>" };

/** POST /api/projects/:slug/share: a read-only link to the project, or to one of its renders. */
export const shareBody = lazy(() => z.object({
  /** A render file name of this project (`<slug>_<date>_<time>.<ext>`); without it the link is to the project. */
  render: z.string().min(1).max(200).optional(),
  /** Seconds the link works: 60 to 604800 (seven days); one day by default. */
  expiresIn: z
    .number()
    .int("expiresIn must be a whole number of seconds")
    .min(SHARE_LINK_MIN_SECONDS, `expiresIn is at least ${SHARE_LINK_MIN_SECONDS} seconds`)
    .max(SHARE_LINK_MAX_SECONDS, `expiresIn is at most ${SHARE_LINK_MAX_SECONDS} seconds (seven days)`)
    .optional(),
}));

/** GET /api/projects: `limit` and `next` page the list; without `limit` it is whole. */
export const listProjectsQuery = lazy(() => querySchema(pageParams()));
