// The render-node protocol (authenticated by node keys): claim a job (long poll), read the project's files,
// post progress (which renews the lease and tells the node about a cancel), upload the output, complete.
import { eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import {
  ClaimedJobSchema,
  ClaimRequestSchema,
  CompleteRequestSchema,
  JoinJobOptionsSchema,
  PlanRequestSchema,
  MAX_CLAIM_WAIT_S,
  PreviewRequestSchema,
  ProgressRequestSchema,
} from "../../../core/protocol/node-routes.ts";
import { isRenderWork } from "../../../core/protocol/job-kinds.ts";
import { FORMAT_CONTENT_TYPES, type Format } from "../../../core/render/render-options.ts";
import { contentTypeFor } from "../../../core/http/content-type.ts";
import { rawFilePath } from "../../http/raw-file-path.ts";
import { openDb } from "../../db/client.ts";
import { renders } from "../../db/schema/renders.ts";
import { fileKey, renderKey } from "../../projects/files/keys.ts";
import { segmentKey } from "../segment-keys.ts";
import { listProjectFiles } from "../../projects/files/list-files.ts";
import { scratchSpace, storeWithinQuota, type Reservation } from "../../projects/files/storage-usage.ts";
import type { AppEnv, RenderNode } from "../../http/context.ts";
import { ApiError, badRequest, notFound, unauthorized } from "../../http/errors.ts";
import { serveObject } from "../../http/serve-object.ts";
import { readJson } from "../../http/validate.ts";
import { streamToKey, writeStream } from "../../projects/files/write-file.ts";
import type { JobKind } from "../../../core/protocol/job-kinds.ts";
import type { ClaimedJob } from "../../../core/protocol/node-routes.ts";
import { jobBoard } from "./job-board.ts";
import { claimJob, endJob, findJob, findNodeJob, findRunningNodeJob, JOB_KINDS, leaseMs, renderPartOf, renewLease, setRunningResult, type JobRow } from "./queue.ts";
import { markNodeSeen } from "./node-presence.ts";
import { roomOf } from "../room/room-of.ts";
import { googleFontsForJob, googleFontsKey } from "../../content/google-fonts-cache.ts";
import { GOOGLE_FONTS_DIR } from "../../../core/fonts/google-fonts-files.ts";


function nodeOf(c: Context<AppEnv>): RenderNode {
  const node = c.get("node");
  if (!node) throw unauthorized(c.get("credential") ? "this endpoint takes a render-node key" : c.get("authProblem"));
  return node;
}

/** …/api/node/jobs/:id/files/<path>: the path starts at the seventh segment. */
const JOB_FILE_PATH_START = 6;
/** A waiting claim re-reads the queue at least this often, should a wake-up be lost (the board evicted). */
const SAFETY_RECHECK_MS = 5000;

/** The room hears of its job's claim: a render is now rendering; a browser job's waiter wakes. */
async function announceClaim(env: AppEnv["Bindings"], job: JobRow, nodeName: string): Promise<void> {
  const room = roomOf(env, job);
  if (job.kind === "render") await room.markRendering(job.id, nodeName, job.attempts);
  else if (job.kind === "segment" || job.kind === "join") {
    const { renderId, segment } = renderPartOf(job);
    if (segment !== null) await room.markSegment(renderId, segment, nodeName, job.attempts);
  } else if (job.kind === "snapshot" || job.kind === "check") await room.jobChanged(job.id);
}

/** Node uploads are streamed into R2, which needs their length up front. */
function declaredUpload(c: Context<AppEnv>): { body: ReadableStream<Uint8Array>; length: number } {
  const length = Number(c.req.header("Content-Length"));
  const body = c.req.raw.body;
  if (!body || !Number.isInteger(length) || length <= 0) throw new ApiError(411, "the upload needs a Content-Length");
  return { body, length };
}

async function heldJob(c: Context<AppEnv>) {
  const job = await findNodeJob(openDb(c.env.DB), c.req.param("id") ?? "", nodeOf(c).id);
  if (!job) throw notFound("no such job held by this node");
  return job;
}

/**
 * A job this node is working on now, for reads of a user's data (project files, segments): a node key reads only
 * what a job it currently holds needs. Ended, queued, lapsed-and-requeued and other nodes' jobs answer as missing.
 */
async function runningJob(c: Context<AppEnv>) {
  const job = await findRunningNodeJob(openDb(c.env.DB), c.req.param("id") ?? "", nodeOf(c).id);
  if (!job) throw notFound("no such job held by this node");
  return job;
}

/** Browser jobs may write only here: snapshots go into the project's snapshots/ folder. */
const NODE_WRITABLE_PREFIX = "snapshots/";
const MAX_NODE_UPLOAD_BYTES = 50 * 1024 * 1024;

export const nodeRoutes = new Hono<AppEnv>()
  .post("/jobs/claim", async (c) => {
    const node = nodeOf(c);
    const body = await readJson(c, ClaimRequestSchema);
    const waitS = Math.min(Number(c.req.query("wait") ?? 20) || 0, MAX_CLAIM_WAIT_S);
    const kinds = body.kinds ?? JOB_KINDS;
    const db = openDb(c.env.DB);
    const lease = leaseMs(c.env);
    const deadline = Date.now() + waitS * 1000;
    // Every claim (and every poll that ends empty) shows the node is alive: browser endpoints answer 503 without one.
    await markNodeSeen(db, node.id);
    for (;;) {
      // The board's counters are read before the queue, so work queued in between wakes the wait below at once.
      const marks = await jobBoard(c.env).marksOf(kinds).catch(() => ({}));
      const job = await claimJob(db, node.id, kinds, lease);
      if (job) {
        // Several processes may share one key: the claim's nodeId tells them apart in log lines.
        await announceClaim(c.env, job, body.nodeId ? `${node.name}/${body.nodeId}` : node.name);
        const options = ClaimedJobSchema.shape.options.parse(JSON.parse(job.options));
        const claimed: ClaimedJob = {
          id: job.id, kind: job.kind as JobKind, slug: job.slug, options,
          composition: typeof options.composition === "string" ? options.composition : "index.html",
          leaseMs: lease, attempt: job.attempts,
        };
        return c.json({ job: claimed });
      }
      const left = deadline - Date.now();
      if (left <= 0 || c.req.raw.signal.aborted) {
        await markNodeSeen(db, node.id);
        return c.body(null, 204);
      }
      await jobBoard(c.env)
        .waitForWork(kinds, marks, Math.min(left, SAFETY_RECHECK_MS))
        .catch(() => new Promise((r) => setTimeout(r, Math.min(left, 1000))));
    }
  })
  .get("/jobs/:id/files", async (c) => {
    const job = await runningJob(c);
    const ref = { userId: job.userId, slug: job.slug };
    // The reserved folder is the Worker's: a project's own files there are not passed on.
    const files = (await listProjectFiles(c.env.FILES, ref)).filter((f) => f.type === "file" && !f.path.startsWith(`${GOOGLE_FONTS_DIR}/`));
    // Render pages cannot reach Google: the Google Fonts stylesheets the project links travel with its files. A
    // preview (listed again and again to notice changes) is viewed in the person's own browser, which loads them.
    const fonts = job.kind === "preview" ? [] : await googleFontsForJob(c.env, ref, files.map((f) => ({ path: f.path, size: f.size, key: fileKey(ref, f.path) })));
    // mtime lets a preview notice changed files by listing alone.
    return c.json({ files: [...files.map(({ path, size, mtime }) => ({ path, size, mtime })), ...fonts] });
  })
  .get("/jobs/:id/files/*", async (c) => {
    const job = await runningJob(c);
    const check = rawFilePath(c.req.url, JOB_FILE_PATH_START);
    const ref = { userId: job.userId, slug: job.slug };
    const fontKey = googleFontsKey(ref, check.path);
    const key = fontKey ?? fileKey(ref, check.path);
    if (!fontKey && check.path.startsWith(`${GOOGLE_FONTS_DIR}/`)) throw notFound(`no file ${check.path}`);
    return serveObject(c.env.FILES, key, c.req.raw, {
      contentType: contentTypeFor(check.path),
      notFoundMessage: `no file ${check.path}`,
    });
  })
  .post("/jobs/:id/progress", async (c) => {
    const node = nodeOf(c);
    const { lines, stage, progress } = await readJson(c, ProgressRequestSchema);
    const db = openDb(c.env.DB);
    const job = await findJob(db, c.req.param("id") ?? "");
    if (!job) throw notFound("no such job held by this node");
    // A job this node no longer holds (given to another node after its lease lapsed) or that ended: stop.
    if (job.nodeId !== node.id || job.status !== "running") return c.json({ cancelled: true });
    await markNodeSeen(db, node.id);
    await renewLease(db, job.id, leaseMs(c.env), stage ?? (job.kind === "render" ? undefined : lines.at(-1)));
    if (!isRenderWork(job.kind)) return c.json({ cancelled: false });
    const { renderId, segment } = renderPartOf(job);
    return c.json(await roomOf(c.env, job).nodeProgress(renderId, segment, lines, progress));
  })
  .put("/jobs/:id/files/*", async (c) => {
    const job = await heldJob(c);
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
  })
  .post("/jobs/:id/preview", async (c) => {
    const job = await heldJob(c);
    if (job.kind !== "preview") throw badRequest("only preview jobs report a port");
    const { port } = await readJson(c, PreviewRequestSchema);
    if (!(await setRunningResult(openDb(c.env.DB), job.id, { port }))) return c.json({ cancelled: true });
    return c.json({ cancelled: false });
  })
  .put("/jobs/:id/output", async (c) => {
    const job = await heldJob(c);
    if (job.status !== "running") throw new ApiError(409, "the job is no longer running");
    if (!isRenderWork(job.kind)) throw notFound("this job has no render output");
    const { renderId, segment } = renderPartOf(job);
    const { body, length } = declaredUpload(c);
    // A segment waits for the join under its own key; a render's or join's output is the render's file.
    if (typeof segment === "number") {
      const size = await streamToKey(c.env.FILES, segmentKey(job.userId, renderId, segment), body, length, "application/octet-stream", scratchSpace(length));
      return c.json({ ok: true, size });
    }
    const row = await openDb(c.env.DB).query.renders.findFirst({ where: eq(renders.id, renderId) });
    if (!row) throw notFound("this job has no render output");
    const type = FORMAT_CONTENT_TYPES[row.format as Format] ?? "application/octet-stream";
    // The render's file counts toward its owner's storage quota; past it the upload is refused and the render fails.
    const key = renderKey(job.userId, row.filename);
    const write = (reservation: Reservation) => streamToKey(c.env.FILES, key, body, length, type, reservation);
    return c.json({ ok: true, size: await storeWithinQuota(c.env, job.userId, key, { exact: length }, write) });
  })
  .get("/jobs/:id/segments/:index", async (c) => {
    const job = await runningJob(c);
    if (job.kind !== "join") throw notFound("only a join job reads segments");
    const options = JoinJobOptionsSchema.parse(JSON.parse(job.options));
    const index = Number(c.req.param("index"));
    if (!options.segments.includes(index)) throw notFound(`no segment ${c.req.param("index")}`);
    return serveObject(c.env.FILES, segmentKey(job.userId, options.renderId, index), c.req.raw, {
      contentType: "application/octet-stream",
      notFoundMessage: `segment ${index} is missing`,
    });
  })
  .post("/jobs/:id/plan", async (c) => {
    const job = await heldJob(c);
    if (job.kind !== "render") throw badRequest("only render jobs post a plan");
    const { plan } = await readJson(c, PlanRequestSchema);
    return c.json(await roomOf(c.env, job).plan(job.id, nodeOf(c).id, plan));
  })
  .post("/jobs/:id/complete", async (c) => {
    const job = await heldJob(c);
    const body = await readJson(c, CompleteRequestSchema);
    // A render's room decides its outcome and ends the job itself (worker/renders/room/project-room.ts).
    if (job.kind === "render" || job.kind === "join") return c.json(await roomOf(c.env, job).complete(job.id, nodeOf(c).id, body));
    if (job.kind === "segment") {
      const { renderId, segment } = renderPartOf(job);
      return c.json(await roomOf(c.env, job).completeSegment(renderId, segment as number, nodeOf(c).id, body));
    }
    const error = body.error ?? (body.ok ? undefined : "the render node reported a failure without a message");
    await endJob(openDb(c.env.DB), job.id, body.ok ? "done" : "failed", { error, result: body.result });
    if (job.kind === "snapshot" || job.kind === "check") await roomOf(c.env, job).jobChanged(job.id);
    return c.json({ ok: true });
  });
