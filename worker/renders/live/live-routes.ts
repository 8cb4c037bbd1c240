// Watching a render while it runs: GET /api/renders/:id/live.m3u8 (an HLS EVENT playlist of the finished prefix of
// its fixed segments, EXT-X-ENDLIST once all are there) and GET /api/renders/:id/live/<n>.mp4 (one piece, Range
// served as hls.js asks for its init and media parts). Same access as the render's state: the caller's own render,
// while its room still runs it; after its end the pieces are gone and the final file (downloadUrl) is the video.
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

/** The caller's render `id` while it is in progress (its room's live state), else a 404 that says where its video is. */
async function runningRender(c: { env: AppEnv["Bindings"] }, userId: string, id: string) {
  const found = await findCallerRender(openDb(c.env.DB), userId, id);
  if (!found) throw notFound(`no render with id ${id}`);
  const live = await roomOf(c.env, { userId, slug: found.slug }).getRender();
  if (live?.id !== found.id || !isInProgress(live.status)) {
    throw notFound(`render ${id} is no longer running: its video is the file at its downloadUrl (GET /api/renders/${id})`);
  }
  return found;
}

export const liveRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get(
    "/:id/live.m3u8",
    route(
      {
        operationId: "renderLivePlaylist", summary: "A running render's live HLS playlist: its finished segments so far (EVENT; ENDLIST once all are captured)", tag: "renders", access: "user",
        request: () => ({ params: renderIdParams() }),
        responses: () => ({ 200: media(PLAYLIST_CONTENT_TYPE, "the playlist (fragmented MP4 pieces; mp4 and webm renders kept whole on one node)") }),
        errors: [404],
      },
      async (c, input) => {
        readQuery(c, querySchema({}));
        const user = currentUser(c);
        const render = await runningRender(c, user.id, input.param("id"));
        const pieces = await listLivePieces(c.env.FILES, user.id, render.id);
        return new Response(livePlaylist(pieces, (n) => `live/${n}.mp4`), {
          headers: { "content-type": PLAYLIST_CONTENT_TYPE, "cache-control": "no-store" },
        });
      },
    ),
  )
  .get(
    "/:id/live/:piece",
    route(
      {
        operationId: "renderLivePiece", summary: "One piece of a running render's live playlist (fragmented MP4; Range)", tag: "renders", access: "user",
        request: () => ({ params: pieceParams() }),
        responses: () => ({ 200: media("video/mp4", "the piece", true), 206: media("video/mp4", "the requested range", true) }),
        errors: [404, 416],
      },
      async (c, input) => {
        readQuery(c, querySchema({}));
        const user = currentUser(c);
        const render = await runningRender(c, user.id, input.param("id"));
        const n = input.param("piece");
        return serveObject(c.env.FILES, livePieceKey(user.id, render.id, n), c.req.raw, {
          contentType: "video/mp4", notFoundMessage: `render ${render.id} has no piece ${n} yet`,
        });
      },
    ),
  );
