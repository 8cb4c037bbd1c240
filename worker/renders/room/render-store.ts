// The one owner of a render's status: the ProjectRoom's storage, under one key. Renders stored by the code before the
// phases (one record of optional fields, told apart by `status` alone) are read into their phase here
// (`fromStored`, pure), so a render in flight across a deploy goes on; the next write stores the new shape.
import type { RenderQueuePlace } from "../../../core/protocol/render-state.ts";
import type { RenderPlan } from "../../../core/protocol/render-plan.ts";
import type { EndedRender, Outcome, Progress, RoomRender, RoomSegment } from "../state.ts";

/** The part of a Durable Object's storage the store uses (written out, so the pure reading of this file also
 * loads outside workerd: test/node/render-life.test.ts). */
interface RoomStorage {
  get<T>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
  delete(key: string): Promise<boolean>;
}

/** The storage key of a room's render. */
export const RENDER_KEY = "render";

export async function loadRender(storage: RoomStorage): Promise<RoomRender | null> {
  const stored = await storage.get<StoredRender>(RENDER_KEY);
  return stored ? fromStored(stored) : null;
}

export async function storeRender(storage: RoomStorage, render: RoomRender): Promise<void> {
  await storage.put(RENDER_KEY, render);
}

export async function forgetRender(storage: RoomStorage): Promise<void> {
  await storage.delete(RENDER_KEY);
}

/** A stored render: the current shape, or the shape before phases (every field past the first ones optional). */
export type StoredRender = RoomRender | LegacyRender;

/** The record the previous code stored. */
export interface LegacyRender {
  phase?: undefined;
  id: string;
  userId: string;
  slug: string;
  status: "queued" | "rendering" | "done" | "failed" | "cancelled";
  startedAt: number;
  doneAt: number | null;
  filename: string;
  options: RoomRender["options"];
  lastLine: string;
  progress: Progress | null;
  error: string | null;
  size: number | null;
  deletedAt?: number | null;
  synced?: boolean;
  syncTries?: number;
  node?: string;
  attempt?: number;
  retries?: number;
  plan?: RenderPlan | null;
  segments?: RoomSegment[] | null;
  runningSince?: number | null;
  ranMs?: number;
  queue?: RenderQueuePlace | null;
}

/** A stored render in its phase. A render of the previous code that was running counts from its POST (it kept no
 * claim time), which is what bounded it then. */
export function fromStored(stored: StoredRender): RoomRender {
  if (stored.phase !== undefined) return stored;
  const base = {
    id: stored.id,
    userId: stored.userId,
    slug: stored.slug,
    startedAt: stored.startedAt,
    filename: stored.filename,
    options: stored.options,
    lastLine: stored.lastLine,
    progress: stored.progress,
    plan: stored.plan ?? null,
    retries: stored.retries ?? 0,
    ranMs: stored.ranMs ?? 0,
    waitNoticed: false,
  };
  const since = stored.runningSince ?? stored.startedAt;
  switch (stored.status) {
    case "queued":
      return { ...base, phase: "queued", status: "queued", queue: stored.queue ?? null };
    case "rendering":
      if (stored.segments) return { ...base, phase: "split", status: "rendering", segments: stored.segments, runningSince: since };
      return { ...base, phase: "rendering", status: "rendering", node: stored.node ?? "(unknown)", attempt: stored.attempt ?? 1, runningSince: since };
    default:
      return {
        ...base,
        phase: "ended",
        status: stored.status,
        outcome: legacyOutcome(stored),
        doneAt: stored.doneAt ?? stored.startedAt,
        size: stored.size,
        error: stored.error,
        segments: stored.segments ?? null,
        // Written before this shape existed: a record without the flag was written to D1 (the flag came later).
        synced: stored.synced ?? true,
        syncTries: stored.syncTries ?? 0,
        deletedAt: stored.deletedAt ?? null,
      } satisfies EndedRender;
  }
}

function legacyOutcome(stored: LegacyRender): Outcome {
  if (stored.status === "done") return { ok: true, size: stored.size ?? 0 };
  if (stored.status === "cancelled") return { cancelled: true, reason: stored.lastLine.replace(/^render cancelled: /, "") };
  return { ok: false, error: stored.error ?? stored.lastLine };
}
