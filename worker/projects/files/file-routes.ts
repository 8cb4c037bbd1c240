// /api/projects/:slug/files[/<path>] — list, read (Range, ?download), write (raw or base64), delete.
import * as z from "zod";
import { fileList } from "../../openapi/shapes.ts";
import { json, media } from "../../openapi/operation.ts";
import { route } from "../../http/route.ts";
import { slugParams } from "../../http/path-params.ts";
import { Hono, type Context } from "hono";
import { decodeBase64 } from "../../../core/http/base64.ts";
import { isActiveContentType } from "../../../core/http/active-content.ts";
import { contentTypeFor } from "../../../core/http/content-type.ts";
import { encodePath } from "../../../core/paths/project-path.ts";
import { currentUser, requireUser } from "../../auth/middleware.ts";
import { openDb } from "../../db/client.ts";
import { announceFiles } from "./announce-files.ts";
import { deletePath } from "./delete-files.ts";
import { fileKey, type ProjectRef } from "../../storage/keys.ts";
import { listProjectFiles } from "../../storage/list-objects.ts";
import { storeWithinQuota, type Reservation, type WriteSize } from "./storage-usage.ts";
import { tooLarge, writeBytes, writeChunked, writeStream } from "./write-file.ts";
import { baseUrlOf } from "../../http/base-url.ts";
import { maxFileBytes } from "../../http/config.ts";
import type { AppEnv } from "../../http/context.ts";
import { ApiError, badRequest, conflict, notFound } from "../../http/errors.ts";
import { rawFilePath } from "../../http/raw-file-path.ts";
import { readFileQuery, writeFileQuery } from "./schemas.ts";
import { readBoundedText } from "../../http/read-body.ts";
import { serveObject } from "../../http/serve-object.ts";
import { loadCompositionReaders } from "../load-composition-readers.ts";
import { callerProject } from "../caller-project.ts";
import { updateCompositionFacts } from "../store.ts";

/** …/api/projects/:slug/files/<path>: the path starts at the sixth segment. */
const pathOf = (c: Context<AppEnv>) => rawFilePath(c.req.url, 5);

/**
 * Writes the body into the file, within the file size limit and the user's storage quota (storage-usage.ts):
 * a declared length is reserved exactly before anything is read; base64 text and chunked bodies reserve the most
 * they could store (the file limit, base64's decoded length, or the room left, whichever is least) and are stopped
 * with the quota's 413 past it.
 */
async function writeBody(c: Context<AppEnv>, ref: ProjectRef, path: string, limit: number, base64: boolean): Promise<number> {
  const declared = c.req.header("Content-Length");
  const length = declared === undefined ? null : Number(declared);
  if (length !== null && (!Number.isInteger(length) || length < 0)) throw badRequest("invalid Content-Length");
  if (!base64 && length !== null && length > limit) throw tooLarge(limit);
  const size: WriteSize =
    !base64 && length !== null ? { exact: length } : { atMost: base64 && length !== null ? Math.min(limit, Math.floor((length * 3) / 4)) : limit };
  return storeWithinQuota(c.env, ref.userId, fileKey(ref, path), size, (reservation) => readBody(c, ref, path, limit, length, base64, reservation));
}

async function readBody(
  c: Context<AppEnv>,
  ref: ProjectRef,
  path: string,
  limit: number,
  length: number | null,
  base64: boolean,
  reservation: Reservation,
): Promise<number> {
  const type = contentTypeFor(path);
  if (base64) {
    // Base64 text of a file at the limit, plus room for line breaks; counted while it streams, never unbounded.
    const textLimit = Math.ceil((limit * 4) / 3) + 1024;
    if (length !== null && length > textLimit) throw tooLarge(limit);
    const bytes = decodeBase64(await readBoundedText(c.req.raw, textLimit).catch((err: unknown) => {
      throw err instanceof ApiError && err.status === 413 ? tooLarge(limit) : err;
    }));
    if (!bytes) throw badRequest("body is not valid base64 (encoding=base64)");
    if (bytes.byteLength > limit) throw tooLarge(limit);
    return writeBytes(c.env.FILES, ref, path, bytes, type, reservation);
  }
  const body = c.req.raw.body;
  if (!body || length === 0) return writeBytes(c.env.FILES, ref, path, new Uint8Array(0), type, reservation);
  if (length !== null) return writeStream(c.env.FILES, ref, path, body, length, type, reservation);
  return writeChunked(c.env.FILES, ref, path, body, limit, type, reservation);
}

/** Refuses a write that would put a file where a directory is, or under a path that is a file. */
async function assertWritable(bucket: R2Bucket, ref: ProjectRef, path: string): Promise<void> {
  const below = await bucket.list({ prefix: fileKey(ref, path) + "/", limit: 1 });
  if (below.objects.length > 0) throw conflict(`${path} is a directory`, {}, "path_conflict");
  const segments = path.split("/");
  const ancestors = segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join("/"));
  const heads = await Promise.all(ancestors.map((a) => bucket.head(fileKey(ref, a))));
  const blocking = ancestors.find((_, i) => heads[i]);
  if (blocking) throw conflict(`${blocking} is a file, so it cannot contain ${path}`, {}, "path_conflict");
}

/** `base64` reads the query (?encoding=base64) when the write needs it, after the project is known to be the caller's. */
async function writeFile(c: Context<AppEnv>, base64: () => boolean) {
  const ref = await callerProject(c);
  const { path, isDirectory } = pathOf(c);
  const bucket = c.env.FILES;
  const isBase64 = base64();
  await assertWritable(bucket, ref, path);
  const url = `${baseUrlOf(c)}/api/projects/${ref.slug}/files/${encodePath(path)}`;
  if (isDirectory) {
    // An empty directory is an object (a marker) of no bytes: it counts toward the quota's files.
    const marker = fileKey(ref, path + "/");
    await storeWithinQuota(c.env, ref.userId, marker, { exact: 0 }, () => bucket.put(marker, new Uint8Array(0)));
    await announceFiles(c.env, ref, { written: [path + "/"] });
    return c.json({ written: true, slug: ref.slug, path: path + "/", bytes: 0, url: url + "/" });
  }
  const bytes = await writeBody(c, ref, path, maxFileBytes(c.env), isBase64);
  if (path === "index.html") {
    const html = (await (await bucket.get(fileKey(ref, path)))?.text()) ?? "";
    const { readCompositionMeta } = await loadCompositionReaders();
    const meta = readCompositionMeta(html);
    await updateCompositionFacts(openDb(c.env.DB), ref, {
      compositionId: meta.compositionId ?? undefined,
      duration: meta.duration ?? undefined,
    });
  }
  await announceFiles(c.env, ref, { written: [path] });
  return c.json({ written: true, slug: ref.slug, path, bytes, url });
}

/** PUT and POST write a file alike. */
const writeDoc = (method: "put" | "post") => ({
  operationId: method === "put" ? "writeFile" : "writeFilePost",
  summary: method === "put" ? "Write a file: the raw bytes, or base64 text with ?encoding=base64; a path ending in / makes a directory" : "Alias of PUT",
  tag: "files",
  access: "user" as const,
  request: () => ({ params: slugParams(), query: writeFileQuery(), body: { raw: ["application/octet-stream", "*/*"] } }),
  responses: () => ({ 200: json(z.object({ written: z.literal(true), slug: z.string(), path: z.string(), bytes: z.number().int(), url: z.string() }), "written") }),
  errors: [400, 404, 409, 411, 413],
});

export const fileRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get(
    "/:slug/files",
    route(
      { operationId: "listFiles", summary: "Recursive file listing", tag: "files", access: "user", request: () => ({ params: slugParams() }), responses: () => ({ 200: json(fileList(), "the files") }), errors: [404] },
      async (c) => {
        const ref = await callerProject(c);
        return c.json({ slug: ref.slug, files: await listProjectFiles(c.env.FILES, ref) });
      },
    ),
  )
  .get(
    "/:slug/files/*",
    route(
      {
        operationId: "readFile", summary: "Read a file (Range; ?download; active types always as a sandboxed attachment)", tag: "files", access: "user",
        request: () => ({ params: slugParams(), query: readFileQuery() }),
        responses: () => ({ 200: media("*/*", "the file's bytes with its content type", true), 206: media("*/*", "the requested range", true) }),
        errors: [400, 404, 416],
      },
      async (c, input) => {
        const query = input.query();
        const { path } = pathOf(c);
        // The key is scoped to the caller's user id, so a stored object proves the project is theirs; the D1 check
        // runs only when nothing is there, to tell a missing project from a missing file.
        const ref = { userId: currentUser(c).id, slug: input.param("slug") };
        const name = path.slice(path.lastIndexOf("/") + 1);
        // This is the API origin, next to the dashboard and its cookie: anything a browser could run (HTML, SVG,
        // scripts, PDF, unknown types) is only ever a download here, sandboxed even if opened. Authors' pages are
        // viewed on the content origin (contentUrl in GET /api/projects/:slug).
        const contentType = contentTypeFor(path);
        const active = isActiveContentType(contentType);
        try {
          return await serveObject(c.env.FILES, fileKey(ref, path), c.req.raw, {
            contentType,
            downloadName: active || query.download ? name : undefined,
            notFoundMessage: `no file ${path} in project ${ref.slug}`,
            headers: active ? { "Content-Security-Policy": "sandbox; default-src 'none'" } : {},
          });
        } catch (err) {
          if (err instanceof ApiError && err.status === 404) await callerProject(c);
          throw err;
        }
      },
    ),
  )
  .put("/:slug/files/*", route(writeDoc("put"), (c, input) => writeFile(c, () => input.query().encoding === "base64")))
  .post("/:slug/files/*", route(writeDoc("post"), (c, input) => writeFile(c, () => input.query().encoding === "base64")))
  .delete(
    "/:slug/files/*",
    route(
      { operationId: "deleteFile", summary: "Delete a file or directory (index.html is protected)", tag: "files", access: "user", request: () => ({ params: slugParams() }), responses: () => ({ 200: json(z.object({ deleted: z.literal(true), slug: z.string(), path: z.string() }), "deleted") }), errors: [403, 404] },
      async (c) => {
        const ref = await callerProject(c);
        const { path } = pathOf(c);
        if (path === "index.html") throw new ApiError(403, "index.html is protected and cannot be deleted", {}, {}, "protected_file");
        const deleted = await deletePath(c.env, ref, path);
        if (!deleted) throw notFound(`no file or directory ${path} in project ${ref.slug}`);
        await announceFiles(c.env, ref, { deleted: [path] });
        return c.json({ deleted: true, slug: ref.slug, path });
      },
    ),
  );
