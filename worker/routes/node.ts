// The render-node protocol (authenticated by node keys): claim a job (long poll), read the project's files,
// post progress (which renews the lease and tells the node about a cancel), upload the output, complete.
import { eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import {
  ClaimRequestSchema,
  CompleteRequestSchema,
  MAX_CLAIM_WAIT_S,
  PreviewRequestSchema,
  ProgressRequestSchema,
} from "../../core/protocol/node-routes.ts";
import { toRenderProgress } from "../../core/protocol/progress.ts";
import { FORMAT_CONTENT_TYPES, type Format } from "../../core/render/render-options.ts";
import { contentTypeFor } from "../../core/http/content-type.ts";
import { rawFilePath } from "../http/raw-file-path.ts";
import { openDb } from "../db/client.ts";
import { renders } from "../db/schema/renders.ts";
import { fileKey, renderKey } from "../files/keys.ts";
import { listProjectFiles } from "../files/list-files.ts";
import type { AppEnv, RenderNode } from "../http/context.ts";
import { ApiError, badRequest, notFound, unauthorized } from "../http/errors.ts";
import { serveObject } from "../http/serve-object.ts";
import { readJson } from "../http/validate.ts";
import { streamToKey, writeStream } from "../files/write-file.ts";
import { claimJob, endJob, findNodeJob, JOB_KINDS, leaseMs, renewLease, setRunningResult } from "../jobs/queue.ts";
import { markNodeSeen } from "../nodes/node-presence.ts";
import { roomOf } from "../rooms/room-of.ts";
import { googleFontsForJob, googleFontsKey } from "../fonts/google-fonts-cache.ts";
import { GOOGLE_FONTS_DIR } from "../../core/fonts/google-fonts-files.ts";


function nodeOf(c: Context<AppEnv>): RenderNode {
  const node = c.get("node");
  if (!node) throw unauthorized(c.get("credential") ? "this endpoint takes a render-node key" : c.get("authProblem"));
  return node;
}

/** …/api/node/jobs/:id/files/<path>: the path starts at the seventh segment. */
const JOB_FILE_PATH_START = 6;

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

/** Browser jobs may write only here: snapshots go into the project's snapshots/ folder. */
const NODE_WRITABLE_PREFIX = "snapshots/";
const MAX_NODE_UPLOAD_BYTES = 50 * 1024 * 1024;

export const nodeRoutes = new Hono<AppEnv>()
  .post("/jobs/claim", async (c) => {
    const node = nodeOf(c);
    const body = await readJson(c, ClaimRequestSchema);
    const waitS = Math.min(Number(c.req.query("wait") ?? 20) || 0, MAX_CLAIM_WAIT_S);
    const db = openDb(c.env.DB);
    const lease = leaseMs(c.env);
    const deadline = Date.now() + waitS * 1000;
    // Every claim (and every poll that ends empty) shows the node is alive: browser endpoints answer 503 without one.
    await markNodeSeen(db, node.id);
    for (;;) {
      const job = await claimJob(db, node.id, body.kinds ?? JOB_KINDS, lease);
      if (job) {
        if (job.kind === "render") await roomOf(c.env, job).markRendering(job.id, node.name);
        const options = JSON.parse(job.options) as Record<string, unknown>;
        return c.json({
          job: { id: job.id, kind: job.kind, slug: job.slug, options, composition: options.composition ?? "index.html", leaseMs: lease },
        });
      }
      if (Date.now() >= deadline || c.req.raw.signal.aborted) {
        await markNodeSeen(db, node.id);
        return c.body(null, 204);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })
  .get("/jobs/:id/files", async (c) => {
    const job = await heldJob(c);
    const ref = { userId: job.userId, slug: job.slug };
    // The reserved folder is the Worker's: a project's own files there are not passed on.
    const files = (await listProjectFiles(c.env.FILES, ref)).filter((f) => f.type === "file" && !f.path.startsWith(`${GOOGLE_FONTS_DIR}/`));
    // Render pages cannot reach Google: the Google Fonts stylesheets the project links travel with its files. A
    // preview (listed again and again to notice changes) is viewed in the person's own browser, which loads them.
    const fonts = job.kind === "preview" ? [] : await googleFontsForJob(c.env.FILES, files.map((f) => ({ path: f.path, size: f.size, key: fileKey(ref, f.path) })));
    // mtime lets a preview notice changed files by listing alone.
    return c.json({ files: [...files.map(({ path, size, mtime }) => ({ path, size, mtime })), ...fonts] });
  })
  .get("/jobs/:id/files/*", async (c) => {
    const job = await heldJob(c);
    const check = rawFilePath(c.req.url, JOB_FILE_PATH_START);
    const fontKey = googleFontsKey(check.path);
    const key = fontKey ?? fileKey({ userId: job.userId, slug: job.slug }, check.path);
    if (!fontKey && check.path.startsWith(`${GOOGLE_FONTS_DIR}/`)) throw notFound(`no file ${check.path}`);
    return serveObject(c.env.FILES, key, c.req.raw, {
      contentType: contentTypeFor(check.path),
      notFoundMessage: `no file ${check.path}`,
    });
  })
  .post("/jobs/:id/progress", async (c) => {
    const job = await heldJob(c);
    const { lines, stage, progress } = await readJson(c, ProgressRequestSchema);
    if (job.status !== "running") return c.json({ cancelled: true });
    const db = openDb(c.env.DB);
    await markNodeSeen(db, nodeOf(c).id);
    await renewLease(db, job.id, leaseMs(c.env), stage ?? (job.kind === "render" ? undefined : lines.at(-1)));
    if (job.kind !== "render") return c.json({ cancelled: false });
    return c.json(await roomOf(c.env, job).appendLines(job.id, lines, progress && toRenderProgress(progress)));
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
    const size = await writeStream(c.env.FILES, ref, check.path, body, length, contentTypeFor(check.path));
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
    const row = await openDb(c.env.DB).query.renders.findFirst({ where: eq(renders.id, job.id) });
    if (!row) throw notFound("this job has no render output");
    const { body, length } = declaredUpload(c);
    const type = FORMAT_CONTENT_TYPES[row.format as Format] ?? "application/octet-stream";
    return c.json({ ok: true, size: await streamToKey(c.env.FILES, renderKey(job.userId, row.filename), body, length, type) });
  })
  .post("/jobs/:id/complete", async (c) => {
    const job = await heldJob(c);
    const body = await readJson(c, CompleteRequestSchema);
    const db = openDb(c.env.DB);
    const room = job.kind === "render" ? roomOf(c.env, job) : null;
    if (body.ok && room) {
      const row = await db.query.renders.findFirst({ where: eq(renders.id, job.id) });
      const object = row ? await c.env.FILES.head(renderKey(job.userId, row.filename)) : null;
      if (!object) {
        const error = "the render node reported success but uploaded no file";
        if (await endJob(db, job.id, "failed", { error })) await room.finish(job.id, { ok: false, error });
        return c.json({ ok: false, error });
      }
      if (await endJob(db, job.id, "done", { result: body.result })) await room.finish(job.id, { ok: true, size: object.size });
      return c.json({ ok: true });
    }
    const error = body.error ?? (body.ok ? undefined : "the render node reported a failure without a message");
    const ended = await endJob(db, job.id, body.ok ? "done" : "failed", { error, result: body.result });
    if (ended && room && !body.ok) await room.finish(job.id, { ok: false, error: error ?? "failed" });
    return c.json({ ok: true });
  });
