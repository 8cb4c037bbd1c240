// The one call the ProjectRoom makes when a batch ends (done, failed or cancelled): a `batch.<status>` delivery of
// the batch's final state to the batch's webhookUrl, else the project's webhook, like a render's end
// (notify-render-ended.ts; each row's render is delivered as a render too). It never throws: a webhook problem must
// not disturb the batch's own ending.
import type { BatchState } from "../../core/protocol/render-state.ts";
import type { Env } from "../env.ts";
import { apiOrigin } from "../http/origins.ts";
import { logEvent } from "../http/log.ts";
import { outboxOf } from "../webhooks/outbox-of.ts";
import { projectLookup } from "./notify-render-ended.ts";

/** The body every receiver gets (Standard Webhooks: type, timestamp, data), with absolute download URLs. */
export function batchEventPayload(env: Env, batch: BatchState, at: Date) {
  const rows = batch.rows.map((row) => ({ ...row, downloadUrl: row.downloadUrl ? `${apiOrigin(env)}${row.downloadUrl}` : null }));
  return { type: `batch.${batch.status}`, timestamp: at.toISOString(), data: { ...batch, rows } };
}

export async function notifyBatchEnded(env: Env, userId: string, webhookUrl: string | undefined, batch: BatchState, lookup = projectLookup(env, userId, batch.slug)): Promise<void> {
  try {
    const outbox = outboxOf(env, userId);
    const project = webhookUrl ? null : await lookup();
    const url = webhookUrl ?? (project ? await outbox.projectHook(batch.slug, project.createdAt) : null);
    if (!url) return;
    const payload = batchEventPayload(env, batch, new Date());
    await outbox.enqueue({ renderId: batch.id, slug: batch.slug, event: payload.type, url, payload: JSON.stringify(payload) });
  } catch (err) {
    logEvent("error", "webhook.queue_failed", { error: err, batchId: batch.id });
  }
}
