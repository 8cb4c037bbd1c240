// The farm's recent pace against the cost model (core/render/cost-model.ts throughputScale): how the node seconds of
// the last finished renders quoted by this model version compared with the model's own estimate (the quote's
// renderSeconds before it was scaled). A slow or loaded farm lengthens every quote, a fast one shortens it, without
// refitting. One query, read through the renders_done index (status, done_at).
import { sql } from "drizzle-orm";
import { throughputScale } from "../../core/render/cost-model.ts";
import { COST_MODEL_FIT } from "../../core/render/cost-model-fit.ts";
import type { Db } from "../db/client.ts";

/** Finished renders the scale looks at: enough to ride out one odd render, few enough to follow the farm. */
export const THROUGHPUT_SAMPLE = 5;

/** Only renders of the last day count: an older pace says little of today's farm, and the scan stays bounded. */
const WITHIN_MS = 24 * 60 * 60 * 1000;

/** The factor this model's estimates are multiplied by now. */
export async function recentThroughput(db: Db, now = Date.now()): Promise<number> {
  const rows = await db.all<{ ratio: number | null }>(sql`SELECT
      json_extract(state, '$.actual.renderSeconds') * coalesce(json_extract(state, '$.quote.model.throughputScale'), 1)
        / json_extract(state, '$.quote.renderSeconds') AS ratio
    FROM renders
    WHERE status = 'done' AND done_at > ${now - WITHIN_MS} AND json_extract(state, '$.quote.model.version') = ${COST_MODEL_FIT.version}
      AND json_extract(state, '$.quote.renderSeconds') > 0 AND json_extract(state, '$.actual.renderSeconds') IS NOT NULL
    ORDER BY done_at DESC LIMIT ${THROUGHPUT_SAMPLE}`);
  return throughputScale(rows.flatMap((r) => (r.ratio === null ? [] : [r.ratio])));
}
