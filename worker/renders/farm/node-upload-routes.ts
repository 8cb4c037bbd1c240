// What a render node uploads: a snapshot job's image into the project's snapshots/ folder, a render's output
// (the render's file, or a segment kept for the join), and a finished render's poster beside its file. Both count toward the owner's storage quota, except a
// segment's scratch space; both only from the node holding the running job, and a render's only while its room
// still wants them (an upload that came up as the render ended is removed, 409: nothing is left that no one removes).
import { eq } from "drizzle-orm";
import { Hono } from "hono";
import type { Context } from "hono";
import { OutputResponseSchema, PosterResponseSchema, ProjectFileWriteResponseSchema } from "../../../core/protocol/node-routes.ts";
import { isRenderWork } from "../../../core/protocol/job-kinds.ts";
import { FORMAT_CONTENT_TYPES, type Format } from "../../../core/render/render-options.ts";
import { isLiveFormat, mostSegments } from "../../../core/render/segment-plan.ts";
import { contentTypeFor } from "../../../core/http/content-type.ts";
import { openDb } from "../../db/client.ts";
import { renders } from "../../db/schema/renders.ts";
import type { AppEnv } from "../../http/context.ts";
import { ApiError, conflict, notFound } from "../../http/errors.ts";
import { rawFilePath } from "../../http/raw-file-path.ts";
import { route } from "../../http/route.ts";
import { jobIdParams } from "../../http/path-params.ts";
import { json } from "../../openapi/operation.ts";
import { fileKey, posterKey, renderKey } from "../../storage/keys.ts";
import { MAX_POSTER_BYTES, POSTER_CONTENT_TYPE } from "../poster.ts";
import { removeStored, scratchSpace, storeWithinQuota, type Reservation } from "../../projects/files/storage-usage.ts";
import { streamToKey, writeStream } from "../../projects/files/write-file.ts";
import { segmentKey } from "../segment-keys.ts";
import { maxVideoSeconds } from "../video-length.ts";
import { livePieceKey, pieceMetadata } from "../live/live-pieces.ts";
import { querySchema, queryInt } from "../../http/query.ts";
import * as z from "zod";
import { lazy } from "../../../core/lazy.ts";
import { roomOf } from "../../durable-objects/room-of.ts";
import type { RenderUpload } from "../room/node-calls.ts";
import { declaredUpload, heldJob, JOB_FILE_PATH_START } from "./node-caller.ts";
import { renderPartOf } from "./queue.ts";

/** Browser jobs may write only here: snapshots go into the project's snapshots/ folder. */
const NODE_WRITABLE_PREFIX = "snapshots/";
const MAX_NODE_UPLOAD_BYTES = 50 * 1024 * 1024;

/** A live piece's number: the output's n-th fixed segment, a whole number as the node writes it. */
const livePieceParams = lazy(() =>
  jobIdParams().extend({ n: z.string().regex(/^(0|[1-9]\d{0,5})$/, { error: (issue) => `no piece ${String(issue.input)}` }).transform(Number) }),
);
/** The piece's figures (worker/renders/live/live-playlist.ts LivePiece): its length, its parts' ends, the render's piece count. */
const livePieceQuery = lazy(() =>
  querySchema({
    seconds: z.string().regex(/^\d+(\.\d+)?$/, "must be a number of seconds").transform(Number).pipe(z.number().positive().max(60)),
    initBytes: queryInt(1, MAX_NODE_UPLOAD_BYTES),
    mediaEnd: queryInt(2, MAX_NODE_UPLOAD_BYTES),
    count: queryInt(1, 1_000_000),
  }),
);

export const nodeUploadRoutes = new Hono<AppEnv>()
  .put(
    "/jobs/:id/files/*",
    route(
      {
        operationId: "nodeWriteJobFile", summary: "Write a snapshot file (snapshots/ only)", tag: "node", access: "node",
        request: () => ({ params: jobIdParams(), body: { raw: ["application/octet-stream", "image/png"] } }),
        responses: () => ({ 200: json(ProjectFileWriteResponseSchema, "written") }),
        errors: [403, 404, 409, 411, 413],
      },
      async (c, input) => {
        const job = await heldJob(c, input.param("id"));
        if (job.status !== "running") throw new ApiError(409, "the job is no longer running");
        if (job.kind !== "snapshot") throw new ApiError(403, "only snapshot jobs write project files");
        const check = rawFilePath(c.req.url, JOB_FILE_PATH_START);
        if (!check.path.startsWith(NODE_WRITABLE_PREFIX) || check.isDirectory) {
          throw new ApiError(403, `a render node may write only files under ${NODE_WRITABLE_PREFIX}`);
        }
        const { body, length } = declaredUpload(c);
        if (length > MAX_NODE_UPLOAD_BYTES) throw new ApiError(413, `uploads from render nodes are limited to ${MAX_NODE_UPLOAD_BYTES} bytes`);
        const ref = { userId: job.userId, slug: job.slug };
        const write = (reservation: Reservation) => writeStream(c.env.FILES, ref, check.path, body, length, contentTypeFor(check.path), reservation);
        const size = await storeWithinQuota(c.env, job.userId, fileKey(ref, check.path), { exact: length }, write);
        return c.json({ ok: true, path: check.path, size });
      },
    ),
  )
  .put(
    "/jobs/:id/output",
    route(
      {
        operationId: "nodeUploadOutput", summary: "Upload the rendered video (or a segment)", tag: "node", access: "node",
        request: () => ({ params: jobIdParams(), body: { raw: ["video/mp4", "video/webm", "video/quicktime", "image/gif", "application/zip", "video/x-matroska", "application/octet-stream"] } }),
        responses: () => ({ 200: json(OutputResponseSchema, "stored") }),
        errors: [404, 409, 411, 413],
      },
      async (c, input) => {
        const job = await heldJob(c, input.param("id"));
        if (job.status !== "running") throw new ApiError(409, "the job is no longer running");
        if (!isRenderWork(job.kind)) throw notFound("this job has no render output");
        const { renderId, segment } = renderPartOf(job);
        const { body, length } = declaredUpload(c);
        // A segment waits for the join under its own key; a render's or join's output is the render's file.
        if (typeof segment === "number") {
          const key = segmentKey(job.userId, renderId, segment);
          const size = await streamToKey(c.env.FILES, key, body, length, "application/octet-stream", scratchSpace(length));
          await keptOrRemoved(c, { userId: job.userId, slug: job.slug, renderId, upload: "segment" }, () => c.env.FILES.delete(key), "the segment");
          return c.json({ ok: true, size });
        }
        const row = await openDb(c.env.DB).query.renders.findFirst({ where: eq(renders.id, renderId) });
        if (!row) throw notFound("this job has no render output");
        const type = FORMAT_CONTENT_TYPES[row.format as Format] ?? "application/octet-stream";
        // The render's file counts toward its owner's storage quota; past it the upload is refused and the render fails.
        const key = renderKey(job.userId, row.filename);
        const write = (reservation: Reservation) => streamToKey(c.env.FILES, key, body, length, type, reservation);
        const size = await storeWithinQuota(c.env, job.userId, key, { exact: length }, write);
        await keptOrRemoved(c, { userId: job.userId, slug: job.slug, renderId, upload: "file" }, () => removeStored(c.env, job.userId, [key]), "the render's file");
        return c.json({ ok: true, size });
      },
    ),
  )
  .put(
    "/jobs/:id/live/:n",
    route(
      {
        operationId: "nodeUploadLivePiece", summary: "Upload a running render's finished segment as a live piece (fragmented MP4)", tag: "node", access: "node",
        request: () => ({ params: livePieceParams(), query: livePieceQuery(), body: { raw: ["video/mp4"] } }),
        responses: () => ({ 200: json(OutputResponseSchema, "stored") }),
        errors: [400, 404, 409, 411, 413],
      },
      async (c, input) => {
        const job = await heldJob(c, input.param("id"));
        if (job.status !== "running") throw new ApiError(409, "the job is no longer running");
        // Only a render kept whole on one node shows live: a split render's segments go to the join instead.
        if (job.kind !== "render") throw notFound("only a render job uploads live pieces");
        // And only in a format shown live: no playlist lists a mov's or gif's pieces, and its end sweeps none away.
        const { format } = JSON.parse(job.options) as { format?: unknown };
        if (typeof format !== "string" || !isLiveFormat(format)) throw new ApiError(400, `a ${String(format)} render is not shown live: it uploads no live pieces`);
        const { renderId } = renderPartOf(job);
        const { seconds, initBytes, mediaEnd, count } = input.query();
        const n = input.param("n");
        if (n >= count || initBytes >= mediaEnd) throw new ApiError(400, `piece ${n} of ${count} with parts ending at ${initBytes} and ${mediaEnd} is not a piece`);
        // Each piece is uncounted scratch space that every read of the live playlist lists: no more than a render makes.
        const longest = maxVideoSeconds(c.env);
        const most = mostSegments(longest);
        if (count > most) throw new ApiError(400, `a render has at most ${most} live pieces (${longest} s of video, MAX_VIDEO_SECONDS); ${count} is not its count`);
        const { body, length } = declaredUpload(c);
        if (length > MAX_NODE_UPLOAD_BYTES) throw new ApiError(413, `uploads from render nodes are limited to ${MAX_NODE_UPLOAD_BYTES} bytes`);
        if (mediaEnd > length) throw new ApiError(400, `the media part ends at ${mediaEnd}, past the piece's ${length} bytes`);
        // Scratch space like a split render's segments: gone when the render ends, its final file counted instead.
        const key = livePieceKey(job.userId, renderId, n);
        const size = await streamToKey(c.env.FILES, key, body, length, "video/mp4", scratchSpace(length), pieceMetadata({ seconds, initBytes, mediaEnd, count }));
        // The render may have ended while the piece came up: a piece its room no longer wants goes here, so none is
        // ever left behind in R2. The room owns the render's status, so asking it costs no second D1 read.
        await keptOrRemoved(c, { userId: job.userId, slug: job.slug, renderId, upload: "live piece" }, () => c.env.FILES.delete(key), "the piece");
        return c.json({ ok: true, size });
      },
    ),
  )
  .put(
    "/jobs/:id/poster",
    route(
      {
        operationId: "nodeUploadPoster", summary: "Upload a finished render's poster (a render or join job)", tag: "node", access: "node",
        request: () => ({ params: jobIdParams(), body: { raw: [POSTER_CONTENT_TYPE] } }),
        responses: () => ({ 200: json(PosterResponseSchema, "stored") }),
        errors: [404, 409, 411, 413],
      },
      async (c, input) => {
        const job = await heldJob(c, input.param("id"));
        if (job.status !== "running") throw new ApiError(409, "the job is no longer running");
        const { renderId, segment } = isRenderWork(job.kind) ? renderPartOf(job) : { renderId: null, segment: null };
        // A segment is a part of a video, not a render: only the job that makes the render's file makes its poster.
        if (renderId === null || typeof segment === "number") throw notFound("this job makes no render's poster");
        // Past the owner's quota the render is done without one.
        const size = await storeBesideRender(c, { userId: job.userId, slug: job.slug, renderId }, { keyOf: posterKey, type: POSTER_CONTENT_TYPE, maxBytes: MAX_POSTER_BYTES, what: "a poster" });
        return c.json({ ok: true, size });
      },
    ),
  );

/**
 * Stores the upload beside a render's file (its poster, its carry manifest) under `keyOf(owner, filename)`, bounded
 * to `maxBytes` and counted toward its owner's storage like the file, which deletes it with itself (delete-files.ts).
 */
export async function storeBesideRender(
  c: Context<AppEnv>,
  render: { userId: string; slug: string; renderId: string },
  upload: { keyOf: (userId: string, filename: string) => string; type: string; maxBytes: number; what: string },
): Promise<number> {
  const { body, length } = declaredUpload(c);
  if (length > upload.maxBytes) throw new ApiError(413, `${upload.what} is limited to ${upload.maxBytes} bytes`);
  const row = await openDb(c.env.DB).query.renders.findFirst({ where: eq(renders.id, render.renderId) });
  if (!row) throw notFound("this job has no render");
  const key = upload.keyOf(render.userId, row.filename);
  const write = (reservation: Reservation) => streamToKey(c.env.FILES, key, body, length, upload.type, reservation);
  const size = await storeWithinQuota(c.env, render.userId, key, { exact: length }, write);
  await keptOrRemoved(c, { ...render, upload: "file" }, () => removeStored(c.env, render.userId, [key]), upload.what);
  return size;
}

/**
 * After an upload for a render is stored: kept while the render's room still wants it (room/node-calls.ts
 * keepsUpload); otherwise removed and refused, 409. The render may have ended while it came up, and its end removes
 * what its uploads left (projection.ts writeEndedRender, live-sweeps.ts) maybe before this one was stored: asked after
 * the store, the room (which stores the render as ended before that removal) leaves no window in which both miss it.
 */
async function keptOrRemoved(
  c: Context<AppEnv>,
  render: { userId: string; slug: string; renderId: string; upload: RenderUpload },
  remove: () => Promise<unknown>,
  what: string,
): Promise<void> {
  if (await roomOf(c.env, render).keepsUpload(render.renderId, render.upload)) return;
  await remove();
  throw conflict(`the job ended while ${what} was uploaded: it was not kept`);
}
