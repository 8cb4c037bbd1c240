// The one call the ProjectRoom makes when a render ends (done, failed or cancelled): if the render named a
// webhookUrl, or its project has a webhook, a delivery of the render's final state is queued in the user's outbox.
// It never throws: a webhook problem must not disturb the render's own ending.
import type { Env } from "../env.ts";
import { openDb } from "../db/client.ts";
import { apiOrigin } from "../http/origins.ts";
import { findProject, type ProjectRow } from "../projects/store.ts";
import { publicRenderState, type RoomRender } from "./state.ts";
import { outboxOf } from "../webhooks/outbox-of.ts";
import { logEvent } from "../http/log.ts";

/** The body every receiver gets (Standard Webhooks: type, timestamp, data). */
export function renderEventPayload(env: Env, render: RoomRender, at: Date) {
  const state = publicRenderState(render);
  return {
    type: `render.${render.status}`,
    timestamp: at.toISOString(),
    data: {
      ...state,
      downloadUrl: state.downloadUrl ? `${apiOrigin(env)}${state.downloadUrl}` : null,
      posterUrl: state.posterUrl ? `${apiOrigin(env)}${state.posterUrl}` : null,
    },
  };
}

/**
 * The project whose webhook an end may use (its createdAt tells its hook from an older project's of the same slug),
 * read at most once: the room starts it alongside the end's D1 writes (one round trip for both), and a batch's last
 * row and the batch's own end share it.
 */
export type ProjectLookup = () => Promise<ProjectRow | null>;

export function projectLookup(env: Env, userId: string, slug: string): ProjectLookup {
  let found: Promise<ProjectRow | null> | undefined;
  return () => {
    found ??= findProject(openDb(env.DB), { userId, slug });
    return found;
  };
}

export async function notifyRenderEnded(env: Env, render: RoomRender, lookup = projectLookup(env, render.userId, render.slug)): Promise<void> {
  try {
    const outbox = outboxOf(env, render.userId);
    const project = render.options.webhookUrl ? null : await lookup();
    const url = render.options.webhookUrl ?? (project ? await outbox.projectHook(render.slug, project.createdAt) : null);
    if (!url) return;
    const payload = renderEventPayload(env, render, new Date());
    await outbox.enqueue({ renderId: render.id, slug: render.slug, event: payload.type, url, payload: JSON.stringify(payload) });
  } catch (err) {
    logEvent("error", "webhook.queue_failed", { error: err });
  }
}
