// A project as the API answers it (the OpenAPI document's ProjectSummary), in a list and alone. Built on first use.
// Pure (zod and core/ only): the dashboard and the CLI read these answers with the same schemas.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { RenderStateSchema } from "../../core/protocol/render-state.ts";
import { fileEntry, isoTime, nextCursor, previewState } from "../openapi/shapes.ts";

export const projectSummaryShape = lazy(() =>
  z
    .object({
      name: z.string().describe("the slug"),
      displayName: z.string(),
      compositionId: z.string().nullable(),
      duration: z.number().nullable(),
      createdAt: isoTime(),
      createdBy: z.string().nullable(),
      preview: previewState(),
      render: RenderStateSchema.nullable().describe("the live or last render's state, without the log"),
    })
    .meta({ id: "ProjectSummary" }),
);

/** An entry of GET /api/projects: the summary and a one-hour read-only link to the project on the content origin. */
export const projectListEntry = lazy(() => projectSummaryShape().extend({ contentUrl: z.string() }));

/** GET /api/projects: one page of the list (the whole list without `limit`). */
export const projectList = lazy(() => z.object({ projects: z.array(projectListEntry()), next: nextCursor() }));

/** GET /api/projects/:slug: the project with meta, files and a one-hour contentUrl. */
export const projectDetail = lazy(() =>
  z.object({ project: projectSummaryShape(), meta: z.unknown(), files: z.array(fileEntry()), contentUrl: z.string(), contentExpiresAt: isoTime() }),
);

/** POST /api/projects: the new project's slug, summary and files. */
export const createdProject = lazy(() =>
  z.object({ created: z.literal(true), slug: z.string(), project: projectSummaryShape(), files: z.array(fileEntry()), written: z.array(z.string()) }),
);
