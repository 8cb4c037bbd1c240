// Renders: GET /api/renders (caller's files, newest first, paged), GET /api/renders/:id (one render's state), GET
// and DELETE /renders/<filename>, GET /renders/<filename>/poster (its poster image, poster.ts).
import { Hono } from "hono";
import { FORMAT_CONTENT_TYPES, isRenderFilename, type Format } from "../../core/render/render-options.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { openDb } from "../db/client.ts";
import { posterKey, renderKey } from "../storage/keys.ts";
import { POSTER_CONTENT_TYPE } from "./poster.ts";
import { deleteRenderFile } from "../projects/files/delete-files.ts";
import type { AppEnv } from "../http/context.ts";
import { notFound } from "../http/errors.ts";
import { serveObject } from "../http/serve-object.ts";
import { findRenderFile, renderListEntry } from "./store.ts";
import { findCallerRender, renderFilesPage } from "./by-caller.ts";
import { stateOfRow } from "./projection.ts";
import { downloadRenderQuery, listRendersQuery } from "./schemas.ts";
import { pageLimit, querySchema, readQuery } from "../http/query.ts";
import { route } from "../http/route.ts";
import { filenameParams, idParams } from "../http/path-params.ts";
import { json, media } from "../openapi/operation.ts";
import { RenderStateSchema } from "../../core/protocol/render-state.ts";
import { renderList } from "./shapes.ts";
import * as z from "zod";
import { keysetOf, pageOf } from "../http/cursor.ts";
import { roomOf } from "../durable-objects/room-of.ts";

export const renderListRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get(
    "/",
    route(
      {
        operationId: "listRenders", summary: "The caller's rendered files, newest first (paged with limit and next)", tag: "renders", access: "user",
        request: () => ({ query: listRendersQuery() }),
        responses: () => ({ 200: json(renderList(), "the files") }),
        errors: [400],
      },
      async (c, input) => {
        const query = input.query();
        const after = keysetOf("renders", query.next);
        const limit = pageLimit(query);
        const rows = await renderFilesPage(openDb(c.env.DB), currentUser(c).id, limit === undefined ? undefined : { limit, after });
        const { items, next } = pageOf("renders", rows, limit, (row) => ({ at: row.startedAt, id: row.id }));
        return c.json({ renders: items.map(renderListEntry), next });
      },
    ),
  )
  // One render by id, in any state: the live state from its project's room while it is that room's render, else
  // the state the room last wrote to its row (projection.ts).
  .get(
    "/:id",
    route(
      { operationId: "getRenderById", summary: "One render's state by id, in any state (no log)", tag: "renders", access: "user", request: () => ({ params: idParams() }), responses: () => ({ 200: json(RenderStateSchema, "the render") }), errors: [404] },
      async (c, input) => {
        readQuery(c, querySchema({}));
        const userId = currentUser(c).id;
        const found = await findCallerRender(openDb(c.env.DB), userId, input.param("id"));
        if (!found) throw notFound(`no render with id ${input.param("id")}`);
        const live = await roomOf(c.env, { userId, slug: found.slug }).getRender();
        if (live?.id === found.id) {
          const { lines: _lines, ...state } = live;
          return c.json(state);
        }
        return c.json(stateOfRow(found));
      },
    ),
  );

async function requireRenderFile(c: { env: AppEnv["Bindings"] }, userId: string, filename: string) {
  const row = isRenderFilename(filename) ? await findRenderFile(openDb(c.env.DB), userId, filename) : null;
  if (!row) throw notFound(`no render named ${filename}`);
  return row;
}

export const renderFileRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get(
    "/:filename",
    route(
      {
        operationId: "downloadRender", summary: "Download a render (Range; ?download)", tag: "renders", access: "user",
        request: () => ({ params: filenameParams(), query: downloadRenderQuery() }),
        responses: () => ({ 200: media("video/*", "the video (image/gif for a GIF, application/zip for a png-sequence)", true), 206: media("video/*", "the requested range", true) }),
        errors: [400, 404, 416],
      },
      async (c, input) => {
        const user = currentUser(c);
        const filename = input.param("filename");
        const query = input.query();
        const row = await requireRenderFile(c, user.id, filename);
        return serveObject(c.env.FILES, renderKey(user.id, filename), c.req.raw, {
          contentType: FORMAT_CONTENT_TYPES[row.format as Format] ?? "application/octet-stream",
          downloadName: query.download ? filename : undefined,
          notFoundMessage: `no render named ${filename}`,
        });
      },
    ),
  )
  .get(
    "/:filename/poster",
    route(
      {
        operationId: "renderPoster", summary: "A render's poster image (one frame of it)", tag: "renders", access: "user",
        request: () => ({ params: filenameParams() }),
        responses: () => ({ 200: media(POSTER_CONTENT_TYPE, "the poster", true) }),
        errors: [404],
      },
      async (c, input) => {
        readQuery(c, querySchema({}));
        const user = currentUser(c);
        const filename = input.param("filename");
        // Offered by the download's rule (done, not deleted, this caller's): another user's render is not found.
        await requireRenderFile(c, user.id, filename);
        return serveObject(c.env.FILES, posterKey(user.id, filename), c.req.raw, {
          contentType: POSTER_CONTENT_TYPE,
          notFoundMessage: `the render ${filename} has no poster (its state's posterError says why)`,
        });
      },
    ),
  )
  .delete(
    "/:filename",
    route(
      { operationId: "deleteRender", summary: "Delete a rendered file", tag: "renders", access: "user", request: () => ({ params: filenameParams() }), responses: () => ({ 200: json(z.object({ deleted: z.literal(true), filename: z.string() }), "deleted") }), errors: [404] },
      async (c, input) => {
        const user = currentUser(c);
        const filename = input.param("filename");
        const row = await requireRenderFile(c, user.id, filename);
        // The bytes first, then the room, which writes the render's row (the one writer of render state): should the room
        // call fail, the file is still listed and a retry finishes the job, where the other order could leave bytes in
        // R2 that no list shows.
        await deleteRenderFile(c.env, user.id, filename);
        await roomOf(c.env, { userId: user.id, slug: row.slug }).forgetFile(row.id, filename);
        return c.json({ deleted: true, filename });
      },
    ),
  );
