// The `render` field of project summaries: the newest render from D1; for one still in progress, the room's live
// state (its last line changes every second, and D1 is written only at transitions).
import type { Env } from "../env.ts";
import { isInProgress } from "../renders/state.ts";
import type { RenderRow } from "../renders/store.ts";
import { roomOf } from "../rooms/room-of.ts";

function fromRow(row: RenderRow) {
  return {
    id: row.id,
    slug: row.slug,
    status: row.status,
    startedAt: row.startedAt,
    doneAt: row.doneAt,
    filename: row.filename,
    downloadUrl: row.status === "done" && !row.deletedAt ? `/renders/${row.filename}` : null,
    lastLine: row.lastLine ?? "",
    eventsUrl: `/api/projects/${row.slug}/render/events`,
    format: row.format,
  };
}

/** `latest`: the newest render row of each project (see latestRendersQuery). */
export async function renderSummaries(env: Env, userId: string, latest: RenderRow[]): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
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
      out.set(row.slug, fromRow(row));
    }),
  );
  return out;
}
