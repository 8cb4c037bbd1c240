// Watching a render while it runs: GET /api/renders/:id/live.m3u8 (an HLS EVENT playlist of the finished prefix of
// its fixed segments, EXT-X-ENDLIST once all are there) and GET /api/renders/:id/live/<n>.mp4 (one piece, Range
// served as hls.js asks for its init and media parts). Same access as the render's state: the caller's own render.
// A player still polling as the render ends gets the playlist with EXT-X-ENDLIST and its pieces for a minute after
// the end (room/live-sweeps.ts LIVE_GRACE_MS), so its stream ends cleanly; then the pieces are gone (404) and the
// final file (downloadUrl) is the video.
import { Hono } from "hono";
import * as z from "zod";
import { lazy } from "../../../core/lazy.ts";
import { isInProgress } from "../../../core/protocol/render-state.ts";
import { currentUser, requireUser } from "../../auth/middleware.ts";
import { openDb } from "../../db/client.ts";
import { roomOf } from "../../durable-objects/room-of.ts";
import type { AppEnv } from "../../http/context.ts";
import { notFound } from "../../http/errors.ts";
import { renderIdParams } from "../../http/path-params.ts";
import { querySchema, readQuery } from "../../http/query.ts";
import { route } from "../../http/route.ts";
import { serveObject } from "../../http/serve-object.ts";
import { media } from "../../openapi/operation.ts";
import { findCallerRender } from "../by-caller.ts";
import { livePieceKey, listLivePieces } from "./live-pieces.ts";
import { livePlaylist } from "./live-playlist.ts";

export const PLAYLIST_CONTENT_TYPE = "application/vnd.apple.mpegurl";

const pieceParams = lazy(() =>
  renderIdParams().extend({ piece: z.string().regex(/^(0|[1-9]\d{0,5})\.mp4$/, { error: (issue) => `no piece ${String(issue.input)}` }).transform((name) => Number.parseInt(name, 10)) }),
);

type Bindings = { env: AppEnv["Bindings"] };

/** The caller's render `id`, else a 404. */
async function callerRender(c: Bindings, userId: string, id: string) {
  const found = await findCallerRender(openDb(c.env.DB), userId, id);
  if (!found) throw notFound(`no render with id ${id}`);
  return found;
}

/** The 404 of a render that ended and whose pieces are gone. */
const endedNotFound = (id: string) => notFound(`render ${id} is no longer running: its video is the file at its downloadUrl (GET /api/renders/${id})`);

/** Whether the render is still in progress in its room (its room's live state). */
async function isRunning(c: Bindings, userId: string, render: { id: string; slug: string }): Promise<boolean> {
  const live = await roomOf(c.env, { userId, slug: render.slug }).getRender();
  return live?.id === render.id && isInProgress(live.status);
}

export const liveRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get(
    "/:id/live.m3u8",
    route(
      {
        operationId: "renderLivePlaylist", summary: "A running render's live HLS playlist: its finished segments so far (EVENT; ENDLIST once all are captured, or the render ended: then kept a minute)", tag: "renders", access: "user",
        request: () => ({ params: renderIdParams() }),
        responses: () => ({ 200: media(PLAYLIST_CONTENT_TYPE, "the playlist (fragmented MP4 pieces; mp4 and webm renders kept whole on one node)") }),
        errors: [404],
      },
      async (c, input) => {
        readQuery(c, querySchema({}));
        const user = currentUser(c);
        const render = await callerRender(c, user.id, input.param("id"));
        const [running, pieces] = await Promise.all([isRunning(c, user.id, render), listLivePieces(c.env.FILES, user.id, render.id)]);
        // Ended: the pieces it had, to the end of the list, until they are swept; then where its video is.
        if (!running && pieces.length === 0) throw endedNotFound(render.id);
        return new Response(livePlaylist(pieces, (n) => `live/${n}.mp4`, !running), {
          headers: { "content-type": PLAYLIST_CONTENT_TYPE, "cache-control": "no-store" },
        });
      },
    ),
  )
  .get(
    "/:id/live/:piece",
    route(
      {
        operationId: "renderLivePiece", summary: "One piece of a running render's live playlist (fragmented MP4; Range; kept a minute after the render ends)", tag: "renders", access: "user",
        request: () => ({ params: pieceParams() }),
        responses: () => ({ 200: media("video/mp4", "the piece", true), 206: media("video/mp4", "the requested range", true) }),
        errors: [404, 416],
      },
      async (c, input) => {
        readQuery(c, querySchema({}));
        const user = currentUser(c);
        const render = await callerRender(c, user.id, input.param("id"));
        const n = input.param("piece");
        // A piece is there while its render runs and for a while after its end (room/live-sweeps.ts).
        return serveObject(c.env.FILES, livePieceKey(user.id, render.id, n), c.req.raw, {
          contentType: "video/mp4", notFoundMessage: `render ${render.id} has no piece ${n} (not yet, or no longer: an ended render's video is the file at its downloadUrl)`,
        });
      },
    ),
  );
