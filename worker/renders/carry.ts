// Incremental re-render, the Worker's half: which earlier render a render job may carry unchanged segments from
// (render-node/README.md, "Incremental re-render"). The node proves frame by frame what it may reuse; the Worker
// only picks the candidate, and only among the same user's same project, so nothing crosses users.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { renders } from "../db/schema/renders.ts";
import type { Env } from "../env.ts";
import { manifestKey, renderKey } from "../storage/keys.ts";
import type { RenderOptions } from "../../core/render/render-options.ts";

/** The type a carry manifest is stored and served with (JSON). */
export const MANIFEST_CONTENT_TYPE = "application/json";

/** Done renders looked at, newest first, for one whose output and manifest are both still stored. */
const CANDIDATES = 5;

/** What the render job's row keeps of the choice (its running result), so the downloads can check it. */
export interface CarryChoice {
  carryFrom: string;
}

/**
 * The previous render a render job of `job` carries from: the project's latest done render of the same composition
 * file and format (another format carries nothing: its key differs), not split across nodes (a split render leaves no
 * manifest), not deleted, whose output and manifest are both in R2. Null when there is none.
 */
export async function previousRender(env: Env, db: Db, job: { id: string; userId: string; slug: string; options: Pick<RenderOptions, "composition" | "format"> }): Promise<{ id: string; filename: string } | null> {
  const rows = await db
    .select({ id: renders.id, filename: renders.filename })
    .from(renders)
    .where(and(
      eq(renders.userId, job.userId), eq(renders.slug, job.slug), eq(renders.status, "done"), isNull(renders.deletedAt),
      sql`${renders.id} <> ${job.id}`,
      eq(renders.format, job.options.format),
      sql`json_extract(${renders.state}, '$.composition') = ${job.options.composition}`,
      sql`json_extract(${renders.state}, '$.segments') IS NULL`,
    ))
    .orderBy(desc(renders.doneAt))
    .limit(CANDIDATES)
    .all();
  for (const row of rows) {
    const [output, manifest] = await Promise.all([env.FILES.head(renderKey(job.userId, row.filename)), env.FILES.head(manifestKey(job.userId, row.filename))]);
    if (output && manifest) return row;
  }
  return null;
}

/** The render a running render job was handed to carry from (its running result, set at the claim), or null. */
export function carryChoiceOf(result: string | null): string | null {
  if (!result) return null;
  const parsed = JSON.parse(result) as Partial<CarryChoice>;
  return typeof parsed.carryFrom === "string" ? parsed.carryFrom : null;
}
