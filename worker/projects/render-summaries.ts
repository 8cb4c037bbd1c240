// The `render` field of project summaries: the newest render's state as its row holds it (the room writes it at each
// transition, worker/renders/projection.ts); for one still in progress, the room's live state (its last line and
// progress change every second).
import type { Env } from "../env.ts";
import { isInProgress, type RenderState } from "../../core/protocol/render-state.ts";
import { stateOfRow } from "../renders/projection.ts";
import type { RenderRow } from "../renders/store.ts";
import { roomOf } from "../durable-objects/room-of.ts";

/** `latest`: the newest render row of each project (see latestRendersQuery). */
export async function renderSummaries(env: Env, userId: string, latest: RenderRow[]): Promise<Map<string, RenderState>> {
  const out = new Map<string, RenderState>();
  await Promise.all(
    latest.map(async (row) => {
      if (isInProgress(row.status)) {
        const live = await roomOf(env, { userId, slug: row.slug }).getRender();
        if (live) {
          const { lines: _lines, ...state } = live;
          out.set(row.slug, state);
          return;
        }
      }
      out.set(row.slug, stateOfRow(row));
    }),
  );
  return out;
}
