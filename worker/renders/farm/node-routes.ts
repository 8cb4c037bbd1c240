// The render-node protocol (authenticated by node keys): claim a job (long poll: node-claim-route.ts), read the
// project's files, post progress (which renews the lease and tells the node about a cancel), upload a snapshot or
// the output (node-upload-routes.ts), complete, or give the job back when the node stops (release-job.ts).
import { Hono } from "hono";
import * as z from "zod";
import { lazy } from "../../../core/lazy.ts";
import {
  CompleteRequestSchema,
  JoinJobOptionsSchema,
  PlanRequestSchema,
  PreviewRequestSchema,
  ProgressRequestSchema,
  CancelledResponseSchema,
  CompleteResponseSchema,
  FilesResponseSchema,
  PlanResponseSchema,
  ReleaseRequestSchema,
  ReleaseResponseSchema,
} from "../../../core/protocol/node-routes.ts";
import { route } from "../../http/route.ts";
import { jobIdParams } from "../../http/path-params.ts";
import { json, media } from "../../openapi/operation.ts";
import { isRenderWork } from "../../../core/protocol/job-kinds.ts";
import { isSnapshotPath } from "../../../core/paths/project-path.ts";
import { contentTypeFor } from "../../../core/http/content-type.ts";
import { rawFilePath } from "../../http/raw-file-path.ts";
import { openDb } from "../../db/client.ts";
import { fileKey } from "../../storage/keys.ts";
import { segmentKey } from "../segment-keys.ts";
import { listProjectFiles } from "../../storage/list-objects.ts";
import type { AppEnv } from "../../http/context.ts";
import { badRequest, notFound } from "../../http/errors.ts";
import { serveObject } from "../../http/serve-object.ts";
import { isHolder } from "./job-holder.ts";
import { heldJob, holderOf, JOB_FILE_PATH_START, nodeOf, runningJob } from "./node-caller.ts";
import { nodeClaimRoute } from "./node-claim-route.ts";
import { nodeUploadRoutes } from "./node-upload-routes.ts";
import { nodeCarryRoutes } from "./node-carry-routes.ts";
import { releaseJob } from "./release-job.ts";
import { carryChoiceOf } from "../carry.ts";
import { announceSnapshotFiles } from "../../checks/snapshot-result.ts";
import { endJob, findJob, leaseMs, renderPartOf, renewLease, setRunningResult } from "./queue.ts";
import { markNodeSeen } from "./node-presence.ts";
import { roomOf } from "../../durable-objects/room-of.ts";
import { googleFontsForJob, googleFontsKey } from "../../content/google-fonts-cache.ts";
import { GOOGLE_FONTS_DIR } from "../../../core/fonts/google-fonts-files.ts";

/** A join job's segment: its index, a whole number as the node writes it ("1", never "01" or "1.0"). */
const segmentParams = lazy(() =>
  jobIdParams().extend({ index: z.string().regex(/^(0|[1-9]\d{0,5})$/, { error: (issue) => `no segment ${String(issue.input)}` }).transform(Number) }),
);

export const nodeRoutes = new Hono<AppEnv>()
  .route("/", nodeClaimRoute)
  .route("/", nodeUploadRoutes)
  .route("/", nodeCarryRoutes)
  .get(
    "/jobs/:id/files",
    route(
      { operationId: "nodeListJobFiles", summary: "The files of the job's project (and cached fonts)", tag: "node", access: "node", request: () => ({ params: jobIdParams() }), responses: () => ({ 200: json(FilesResponseSchema, "the files") }), errors: [404] },
      async (c, input) => {
        const job = await runningJob(c, input.param("id"));
        const ref = { userId: job.userId, slug: job.slug };
        // The reserved folder is the Worker's: a project's own files there are not passed on. Nor, to a render's
        // jobs, its snapshots: the studio's output, never a render's input (render-inputs.ts keys a render without them).
        const render = isRenderWork(job.kind);
        const files = (await listProjectFiles(c.env.FILES, ref)).filter((f) => f.type === "file" && !f.path.startsWith(`${GOOGLE_FONTS_DIR}/`) && !(render && isSnapshotPath(f.path)));
        // Render pages cannot reach Google: the Google Fonts stylesheets the project links travel with its files. A
        // preview (listed again and again to notice changes) is viewed in the person's own browser, which loads them.
        const fonts = job.kind === "preview" ? [] : await googleFontsForJob(c.env, ref, files.map((f) => ({ path: f.path, size: f.size, key: fileKey(ref, f.path) })));
        // mtime lets a preview notice changed files by listing alone.
        return c.json({ files: [...files.map(({ path, size, mtime }) => ({ path, size, mtime })), ...fonts] });
      },
    ),
  )
  .get(
    "/jobs/:id/files/*",
    route(
      { operationId: "nodeReadJobFile", summary: "One file of the job's project", tag: "node", access: "node", request: () => ({ params: jobIdParams() }), responses: () => ({ 200: media("application/octet-stream", "the file's bytes", true) }), errors: [404] },
      async (c, input) => {
        const job = await runningJob(c, input.param("id"));
        const check = rawFilePath(c.req.url, JOB_FILE_PATH_START);
        const ref = { userId: job.userId, slug: job.slug };
        const fontKey = googleFontsKey(ref, check.path);
        const key = fontKey ?? fileKey(ref, check.path);
        if (!fontKey && check.path.startsWith(`${GOOGLE_FONTS_DIR}/`)) throw notFound(`no file ${check.path}`);
        return serveObject(c.env.FILES, key, c.req.raw, {
          contentType: contentTypeFor(check.path),
          notFoundMessage: `no file ${check.path}`,
        });
      },
    ),
  )
  .post(
    "/jobs/:id/progress",
    route(
      {
        operationId: "nodeReportProgress", summary: "Log lines, stage and structured progress; renews the lease; answers whether to stop", tag: "node", access: "node",
        request: () => ({ params: jobIdParams(), body: { json: ProgressRequestSchema, required: true } }),
        responses: () => ({ 200: json(CancelledResponseSchema, "whether the job was cancelled or given to another node") }),
        errors: [400, 404],
      },
      async (c, input) => {
        const node = nodeOf(c);
        const { lines, stage, progress } = await input.body();
        const db = openDb(c.env.DB);
        const job = await findJob(db, input.param("id"));
        if (!job) throw notFound("no such job held by this node");
        // A job this node no longer holds (given to another node, or to another process of its key, after its lease
        // lapsed) or that ended: stop.
        if (!isHolder(job, holderOf(c)) || job.status !== "running") return c.json({ cancelled: true });
        await markNodeSeen(db, node.id);
        await renewLease(db, job.id, leaseMs(c.env), stage ?? (job.kind === "render" ? undefined : lines.at(-1)), holderOf(c));
        if (!isRenderWork(job.kind)) return c.json({ cancelled: false });
        const { renderId, segment } = renderPartOf(job);
        return c.json(await roomOf(c.env, job).nodeProgress(renderId, segment, lines, progress));
      },
    ),
  )
  .post(
    "/jobs/:id/preview",
    route(
      {
        operationId: "nodeReportPreview", summary: "The preview server's port", tag: "node", access: "node",
        request: () => ({ params: jobIdParams(), body: { json: PreviewRequestSchema, required: true } }),
        responses: () => ({ 200: json(CancelledResponseSchema, "whether the preview was cancelled") }),
        errors: [400, 404],
      },
      async (c, input) => {
        const job = await heldJob(c, input.param("id"));
        if (job.kind !== "preview") throw badRequest("only preview jobs report a port");
        const { port } = await input.body();
        if (!(await setRunningResult(openDb(c.env.DB), job.id, { port }, holderOf(c)))) return c.json({ cancelled: true });
        return c.json({ cancelled: false });
      },
    ),
  )
  .get(
    "/jobs/:id/segments/:index",
    route(
      { operationId: "nodeReadSegment", summary: "One rendered segment, for the node holding the render's join job", tag: "node", access: "node", request: () => ({ params: segmentParams() }), responses: () => ({ 200: media("application/octet-stream", "the file's bytes", true) }), errors: [404] },
      async (c, input) => {
        const job = await runningJob(c, input.param("id"));
        if (job.kind !== "join") throw notFound("only a join job reads segments");
        const options = JoinJobOptionsSchema.parse(JSON.parse(job.options));
        const index = input.param("index");
        if (!options.segments.includes(index)) throw notFound(`no segment ${index}`);
        return serveObject(c.env.FILES, segmentKey(job.userId, options.renderId, index), c.req.raw, {
          contentType: "application/octet-stream",
          notFoundMessage: `segment ${index} is missing`,
        });
      },
    ),
  )
  .post(
    "/jobs/:id/plan",
    route(
      {
        operationId: "nodePostPlan", summary: "A render job's plan (frames, rate, size, audio); answers how the render is split", tag: "node", access: "node",
        request: () => ({ params: jobIdParams(), body: { json: PlanRequestSchema, required: true } }),
        responses: () => ({ 200: json(PlanResponseSchema, "the segments (one: render it whole here)") }),
        errors: [400, 404, 409],
      },
      async (c, input) => {
        const job = await heldJob(c, input.param("id"));
        if (job.kind !== "render") throw badRequest("only render jobs post a plan");
        const { plan } = await input.body();
        return c.json(await roomOf(c.env, job).plan(job.id, holderOf(c), plan));
      },
    ),
  )
  .post(
    "/jobs/:id/release",
    route(
      {
        operationId: "nodeReleaseJob", summary: "Give the job back (the node is stopping): queued again at once for another node", tag: "node", access: "node",
        request: () => ({ params: jobIdParams(), body: { json: ReleaseRequestSchema, required: true } }),
        responses: () => ({ 200: json(ReleaseResponseSchema, "whether it was put back") }),
        errors: [400, 404],
      },
      async (c, input) => {
        const job = await heldJob(c, input.param("id"));
        if (job.kind === "preview") throw badRequest("a preview is not given back: it lives on its node (stop it instead)");
        const { reason } = await input.body();
        return c.json(await releaseJob(c.env, job, holderOf(c), reason));
      },
    ),
  )
  .post(
    "/jobs/:id/complete",
    route(
      {
        operationId: "nodeCompleteJob", summary: "Finish the job (ok, or an error)", tag: "node", access: "node",
        request: () => ({ params: jobIdParams(), body: { json: CompleteRequestSchema, required: true } }),
        responses: () => ({ 200: json(CompleteResponseSchema.loose(), "recorded") }),
        errors: [400, 404],
      },
      async (c, input) => {
        const job = await heldJob(c, input.param("id"));
        const body = await input.body();
        // A render's room decides its outcome and ends the job itself (worker/renders/room/node-calls.ts). What it
        // carried counts only from the render its claim named (worker/renders/carry.ts).
        if (job.kind === "render" || job.kind === "join") {
          const { carried, ...rest } = body;
          const named = job.kind === "render" && carried && carried.from === carryChoiceOf(job.result) ? { carried } : {};
          return c.json(await roomOf(c.env, job).complete(job.id, holderOf(c), { ...rest, ...named }));
        }
        if (job.kind === "segment") {
          const { renderId, segment } = renderPartOf(job);
          return c.json(await roomOf(c.env, job).completeSegment(renderId, segment as number, holderOf(c), body));
        }
        const error = body.error ?? (body.ok ? undefined : "the render node reported a failure without a message");
        const ended = await endJob(openDb(c.env.DB), job.id, body.ok ? "done" : "failed", { error, result: body.result }, holderOf(c));
        // Announced here, once, whether or not a request waits for the frames (GET …/snapshot/:id reads them later).
        if (ended && body.ok && job.kind === "snapshot") await announceSnapshotFiles(c.env, job, body.result);
        if (job.kind === "snapshot" || job.kind === "check") await roomOf(c.env, job).jobChanged(job.id);
        return c.json({ ok: true });
      },
    ),
  );
