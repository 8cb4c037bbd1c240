// A project as the API answers it (the OpenAPI document's ProjectSummary). Built on first use.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { RenderStateSchema } from "../../core/protocol/render-state.ts";
import { isoTime, previewState } from "../openapi/shapes.ts";

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
