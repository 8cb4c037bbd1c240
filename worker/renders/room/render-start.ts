// A render's start as its ProjectRoom carries it out (a render POST, or a batch's row: batch-run.ts): unless one is
// in progress, the render is stored, its D1 row admitted under the user's cap on renders in progress, the watchdog
// armed, the start told, and its job queued (or, with strict lint errors, the render ended at once).
import { isInProgress, type RenderWithLog } from "../../../core/protocol/render-state.ts";
import { describeRenderOptions } from "../../../core/render/render-options.ts";
import { openDb } from "../../db/client.ts";
import { capOf } from "../../limits/work-caps.ts";
import { announceWork } from "../farm/job-board.ts";
import { enqueueJob } from "../farm/queue.ts";
import { insertProjection } from "../projection.ts";
import { maxRenderMs } from "../render-wall-clock.ts";
import { publicRenderState, type RoomRender } from "../state.ts";
import { freeRenderFilename } from "../store.ts";
import { RENDER_KEY } from "./render-end.ts";
import type { RenderFeed } from "./render-feed.ts";
import { watchdogMs } from "./render-watchdog.ts";
import type { RoomCore } from "./room-core.ts";

/** Rows still "in progress" this long past the wall-clock limit are stale (their room never ended them). */
const STALE_AFTER_LIMIT_MS = 60_000;

export interface StartParts extends RoomCore {
  storage: DurableObjectStorage;
  feed: RenderFeed;
  view(render: RoomRender): RenderWithLog;
}

/** `atCap`: the user already has their limit of renders in progress elsewhere; nothing was started. */
export type AdmitResult = { started: boolean; view: RenderWithLog } | { atCap: true };

/**
 * Starts a render unless one is in progress, in which case that one is returned unchanged (`started: false`).
 * The check and the write are storage operations, which the input gate serialises, so two starts racing here
 * cannot both start; only then are the D1 row and the job written. `failWith` ends it at once (strict lint).
 */
export async function admitRender(room: StartParts, render: RoomRender, failWith?: string[]): Promise<AdmitResult> {
  const existing = await room.current();
  if (existing && isInProgress(existing.status)) return { started: false, view: room.view(existing) };
  await room.save(render);
  const db = openDb(room.env.DB);
  const named: RoomRender = { ...render, filename: await freeRenderFilename(db, render.userId, render.filename) };
  const staleBefore = Date.now() - maxRenderMs(room.env) - STALE_AFTER_LIMIT_MS;
  if (!(await insertProjection(db, named, capOf(room.env, "render"), staleBefore))) {
    if (existing) await room.save(existing);
    else await room.storage.delete(RENDER_KEY);
    return { atCap: true };
  }
  await room.save(named);
  // The watchdog runs from the start, so even a render whose job never got queued ends.
  await room.storage.setAlarm(Date.now() + watchdogMs(room.env));
  room.feed.started(named.id, publicRenderState(named));
  const queued = await room.tell(named, [`render queued: ${describeRenderOptions(named.options)} → ${named.filename}`]);
  if (failWith) {
    await room.tell(queued, failWith);
    await room.finish(named.id, { ok: false, error: "lint errors (strict): fix them or render without strict" });
  } else {
    await enqueueJob(db, { id: named.id, userId: named.userId, slug: named.slug, kind: "render", options: named.options });
    await announceWork(room.env, "render");
  }
  return { started: true, view: room.view((await room.current()) ?? named) };
}
