// A render's start as its ProjectRoom carries it out (a render POST, or a batch's row: batch-run.ts): unless one is
// in progress, the render is stored, its D1 row admitted under the user's cap on renders in progress, the watchdog
// armed, the start told, and its job queued (or, with strict lint errors, the render ended at once).
import { isInProgress, type RenderWithLog } from "../../../core/protocol/render-state.ts";
import { describeRenderOptions } from "../../../core/render/render-options.ts";
import { openDb } from "../../db/client.ts";
import { capOf } from "../../limits/work-caps.ts";
import { announceWork } from "../farm/job-board.ts";
import type { Env } from "../../env.ts";
import { insertProjection, isFilenameTaken, type AdmittedJob } from "../projection.ts";
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
  /** Runs `work` with no other call delivered to the room meanwhile (the object's blockConcurrencyWhile). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
}

/** `atCap`: the user already has their limit of renders in progress elsewhere; nothing was started. */
export type AdmitResult = { started: boolean; view: RenderWithLog } | { atCap: true };

/**
 * Starts a render unless one is in progress, in which case that one is returned unchanged (`started: false`).
 * The check and the write are storage operations, which the input gate serialises, so two starts racing here
 * cannot both start; only then are the D1 row and the job written, together (one round trip). `failWith` ends it
 * at once (strict lint).
 */
export async function admitRender(room: StartParts, render: RoomRender, failWith?: string[]): Promise<AdmitResult> {
  const existing = await room.current();
  if (existing && isInProgress(existing.status)) return { started: false, view: room.view(existing) };
  await room.save(render);
  // The job is queued in the row's round trip, so a node may claim it (and report to the room) before the room has
  // stored the render as admitted and told its start: no other call reaches the room until it has. (Only storage
  // blocks other calls by itself; a D1 call does not.)
  const queued = await room.exclusive(async () => {
    const named = await admitRows(room.env, render, failWith ? undefined : { kind: "render", options: render.options });
    if (!named) {
      if (existing) await room.save(existing);
      else await room.storage.delete(RENDER_KEY);
      return null;
    }
    await room.save(named);
    // The watchdog runs from the start, so even a render whose job never got queued ends.
    await room.storage.setAlarm(Date.now() + watchdogMs(room.env));
    room.feed.started(named.id, publicRenderState(named));
    return room.tell(named, [`render queued: ${describeRenderOptions(named.options)} → ${named.filename}`]);
  });
  if (!queued) return { atCap: true };
  if (failWith) {
    await room.tell(queued, failWith);
    await room.finish(queued.id, { ok: false, error: "lint errors (strict): fix them or render without strict" });
  } else {
    await announceWork(room.env, "render");
  }
  return { started: true, view: room.view((await room.current()) ?? queued) };
}

/**
 * The render's D1 row admitted under the user's cap with its job (one round trip, insertProjection); the render as
 * admitted, its file name moved on a second when another render of the user took it in the same second (then its
 * name is looked up first: a trip more, only then). Null at the cap.
 */
async function admitRows(env: Env, render: RoomRender, job: AdmittedJob | undefined): Promise<RoomRender | null> {
  const db = openDb(env.DB);
  const staleBefore = Date.now() - maxRenderMs(env) - STALE_AFTER_LIMIT_MS;
  const admit = (named: RoomRender) => insertProjection(db, named, capOf(env, "render"), staleBefore, job).then((inserted) => (inserted ? named : null));
  try {
    return await admit(render);
  } catch (err) {
    if (!isFilenameTaken(err)) throw err;
    return admit({ ...render, filename: await freeRenderFilename(db, render.userId, render.filename) });
  }
}
