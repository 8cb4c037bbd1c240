// Reads of one caller's renders for GET /api/renders (paged) and GET /api/renders/:id. Every query is scoped to
// the caller's user id, so another user's render id answers exactly like a missing one.
import { and, eq, isNull } from "drizzle-orm";
import { parseRenderOptions, type RenderOptions } from "../../core/render/render-options.ts";
import type { Db } from "../db/client.ts";
import { afterKeyset, newestFirst, type Keyset } from "../db/keyset.ts";
import { jobs, renders } from "../db/schema/renders.ts";
import type { RenderRow } from "./store.ts";
import { publicRenderState, type RenderStatus } from "./state.ts";

/** Finished files the user still has, newest first (ties by id), `limit + 1` rows after `after` when paged. */
export async function renderFilesPage(db: Db, userId: string, page?: { limit: number; after: Keyset | null }): Promise<RenderRow[]> {
  const query = db
    .select()
    .from(renders)
    .where(
      and(
        eq(renders.userId, userId),
        eq(renders.status, "done"),
        isNull(renders.deletedAt),
        afterKeyset(renders.startedAt, renders.id, page?.after ?? null),
      ),
    )
    .orderBy(...newestFirst(renders.startedAt, renders.id));
  return page ? query.limit(page.limit + 1).all() : query.all();
}

/** The caller's render `id` with its job's options and error, or null. */
export async function findCallerRender(db: Db, userId: string, id: string) {
  const row = await db
    .select({ render: renders, options: jobs.options, error: jobs.error })
    .from(renders)
    .leftJoin(jobs, eq(jobs.id, renders.id))
    .where(and(eq(renders.userId, userId), eq(renders.id, id)))
    .get();
  return row ?? null;
}

/** The render state of a stored render (the room holds only a project's latest one). */
export function storedRenderState(found: NonNullable<Awaited<ReturnType<typeof findCallerRender>>>) {
  const { render } = found;
  const parsed = parseRenderOptions(safeJson(found.options));
  const options: RenderOptions = parsed.ok ? parsed.options : (parseRenderOptions({ format: render.format }) as { ok: true; options: RenderOptions }).options;
  return publicRenderState({
    id: render.id,
    userId: render.userId,
    slug: render.slug,
    status: render.status as RenderStatus,
    startedAt: render.startedAt,
    doneAt: render.doneAt,
    filename: render.filename,
    options,
    lastLine: render.lastLine ?? "",
    progress: null,
    error: found.error,
    size: render.size,
    deletedAt: render.deletedAt,
  });
}

function safeJson(text: string | null): unknown {
  try {
    return text === null ? {} : (JSON.parse(text) as unknown);
  } catch {
    return {};
  }
}
