// A research record as the API answers it (the OpenAPI document's ResearchRecord). Built on first use.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";

export const researchRecord = lazy(() =>
  z
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
      updated_at: z.string().describe("when the record last changed"),
      cover_url: z.string().nullable(),
    })
    .meta({ id: "ResearchRecord" }),
);

/** GET /api/research. */
export const researchList = lazy(() => z.object({ records: z.array(researchRecord()) }).loose());
