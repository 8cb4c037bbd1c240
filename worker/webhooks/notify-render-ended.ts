// The one call the ProjectRoom makes when a render ends (done, failed or cancelled): if the render named a
// webhookUrl, or its project has a webhook, a delivery of the render's final state is queued in the user's outbox.
// It never throws: a webhook problem must not disturb the render's own ending.
import type { Env } from "../env.ts";
import { openDb } from "../db/client.ts";
import { apiOrigin } from "../http/origins.ts";
import { findProject } from "../projects/store.ts";
import { publicRenderState, type RoomRender } from "../renders/state.ts";
import { outboxOf } from "./outbox-of.ts";
import { logEvent } from "../http/log.ts";

/** The body every receiver gets (Standard Webhooks: type, timestamp, data). */
export function renderEventPayload(env: Env, render: RoomRender, at: Date) {
  const state = publicRenderState(render);
  return {
    type: `render.${render.status}`,
    timestamp: at.toISOString(),
    data: { ...state, downloadUrl: state.downloadUrl ? `${apiOrigin(env)}${state.downloadUrl}` : null },
  };
}

export async function notifyRenderEnded(env: Env, render: RoomRender): Promise<void> {
  try {
    const outbox = outboxOf(env, render.userId);
    const project = render.options.webhookUrl ? null : await findProject(openDb(env.DB), { userId: render.userId, slug: render.slug });
    const url = render.options.webhookUrl ?? (project ? await outbox.projectHook(render.slug, project.createdAt) : null);
    if (!url) return;
    const payload = renderEventPayload(env, render, new Date());
    await outbox.enqueue({ renderId: render.id, slug: render.slug, event: payload.type, url, payload: JSON.stringify(payload) });
  } catch (err) {
    logEvent("error", "webhook.queue_failed", { error: err });
  }
}
