// Rendered files: GET /api/renders (caller's, newest first), GET and DELETE /renders/<filename>.
import { Hono } from "hono";
import { FORMAT_CONTENT_TYPES, isRenderFilename, type Format } from "../../core/render/render-options.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { openDb } from "../db/client.ts";
import { renderKey } from "../files/keys.ts";
import type { AppEnv } from "../http/context.ts";
import { notFound } from "../http/errors.ts";
import { serveObject } from "../http/serve-object.ts";
import { findRenderFile, listRenderFiles, renderListEntry, updateRender } from "../renders/store.ts";
import { roomOf } from "../rooms/room-of.ts";

export const renderListRoutes = new Hono<AppEnv>().use(requireUser).get("/", async (c) => {
  const rows = await listRenderFiles(openDb(c.env.DB), currentUser(c).id);
  return c.json({ renders: rows.map(renderListEntry) });
});

async function requireRenderFile(c: { env: AppEnv["Bindings"] }, userId: string, filename: string) {
  const row = isRenderFilename(filename) ? await findRenderFile(openDb(c.env.DB), userId, filename) : null;
  if (!row) throw notFound(`no render named ${filename}`);
  return row;
}

export const renderFileRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/:filename", async (c) => {
    const user = currentUser(c);
    const filename = c.req.param("filename");
    const row = await requireRenderFile(c, user.id, filename);
    return serveObject(c.env.FILES, renderKey(user.id, filename), c.req.raw, {
      contentType: FORMAT_CONTENT_TYPES[row.format as Format] ?? "application/octet-stream",
      downloadName: c.req.query("download") !== undefined ? filename : undefined,
      notFoundMessage: `no render named ${filename}`,
    });
  })
  .delete("/:filename", async (c) => {
    const user = currentUser(c);
    const filename = c.req.param("filename");
    const row = await requireRenderFile(c, user.id, filename);
    // The room first, so no render state offers a download of a file that is going away.
    await roomOf(c.env, { userId: user.id, slug: row.slug }).forgetFile(filename);
    await c.env.FILES.delete(renderKey(user.id, filename));
    await updateRender(openDb(c.env.DB), row.id, { deletedAt: Date.now() });
    return c.json({ deleted: true, filename });
  });
