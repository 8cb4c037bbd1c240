// A render's end as its ProjectRoom carries it out: the decision (render-transitions.ts `ended`) is stored and told
// first, then the D1 rows are written (renders/write-ended-render.ts); should they fail, the decision stands, the
// render offers no download, and the room's alarm writes them with backoff. Then the streams, the `wait`ers and the
// webhook hear of it.
import { backoffDelay } from "../../../core/retry.ts";
import type { RenderWithLog } from "../../../core/protocol/render-state.ts";
import type { Env } from "../../env.ts";
import { logEvent } from "../../http/log.ts";
import { publicRenderState, type RoomRender } from "../state.ts";
import { writeEndedRender } from "../write-ended-render.ts";
import { notifyRenderEnded, projectLookup } from "../notify-render-ended.ts";
import type { ChangeWaiters } from "./change-waiters.ts";
import type { RenderFeed } from "./render-feed.ts";
import { ended, type Outcome } from "./render-transitions.ts";
import { settled } from "../../../core/settled.ts";

/** Retry delays for D1 writes of an ended render that failed: 1 s, doubling to at most 10 min, for at most
 * MAX_SYNC_TRIES tries (about 2 h); then the alarm stops for good. */
const SYNC_BACKOFF = { firstMs: 1000, maxMs: 600_000 };
const MAX_SYNC_TRIES = 20;

/** The storage key of a room's render. */
export const RENDER_KEY = "render";

export interface EndParts {
  env: Env;
  storage: DurableObjectStorage;
  feed: RenderFeed;
  waiters: ChangeWaiters<RenderWithLog>;
  view(render: RoomRender): RenderWithLog;
}

/** `project`: the webhook's project lookup (notify-render-ended.ts), started here alongside the D1 writes. */
export async function endRender(room: EndParts, render: RoomRender, outcome: Outcome, project = projectLookup(room.env, render.userId, render.slug)): Promise<RenderWithLog> {
  const step = ended(render, outcome, Date.now());
  room.feed.lines(render.id, [step.line], { status: render.status, progress: render.progress });
  await room.storage.put(RENDER_KEY, step.render);
  await room.storage.deleteAlarm();
  // The project's webhook is looked up only without a webhookUrl; then in the same round trip as the writes.
  if (!render.options.webhookUrl) void settled(project()); // its failure is the notice's, which awaits it and logs it
  let final = step.render;
  try {
    final = await syncEnded(room, step.render);
  } catch (error) {
    logEvent("error", "render.end_write_failed", { renderId: render.id, retry: "alarm", error });
    await room.storage.setAlarm(Date.now() + backoffDelay(SYNC_BACKOFF, 1));
  }
  const view = room.view(final);
  room.feed.ended(publicRenderState(final));
  room.waiters.notify(render.id, view);
  await notifyRenderEnded(room.env, final, project);
  return view;
}

/** Writes an ended render's D1 rows, then marks it synced (from then on a done render offers its download). */
async function syncEnded(room: EndParts, render: RoomRender): Promise<RoomRender> {
  const synced = { ...(await writeEndedRender(room.env, render)), synced: true };
  await room.storage.put(RENDER_KEY, synced);
  return synced;
}

/** The alarm of an ended render whose rows are not written yet: one more try, then the next with backoff. */
export async function retrySync(room: EndParts, render: RoomRender): Promise<void> {
  try {
    await syncEnded(room, render);
  } catch (error) {
    const tries = (render.syncTries ?? 0) + 1;
    await room.storage.put(RENDER_KEY, { ...render, syncTries: tries });
    if (tries < MAX_SYNC_TRIES) await room.storage.setAlarm(Date.now() + backoffDelay(SYNC_BACKOFF, tries + 1));
    else logEvent("error", "render.end_write_abandoned", { renderId: render.id, tries, error });
  }
}
