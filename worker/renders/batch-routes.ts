// /api/projects/:slug/batch — one render per row of variables, one after another (the room runs them:
// room/batch-run.ts): start, read, cancel. Follow it on the project's event stream (`batch` events) or here.
import { Hono } from "hono";
import * as z from "zod";
import { batchRequestSchema, parseBatchRequest } from "../../core/render/batch-request.ts";
import { BatchStateSchema, NoBatchSchema } from "../../core/protocol/render-state.ts";
import { requireUser } from "../auth/middleware.ts";
import type { AppEnv } from "../http/context.ts";
import { badRequest, conflict, notFound } from "../http/errors.ts";
import { readJson } from "../http/validate.ts";
import { route } from "../http/route.ts";
import { slugParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { delivery } from "../webhooks/shapes.ts";
import { capReached } from "../limits/work-caps.ts";
import { requireCompositionWithinLimits } from "../limits/composition-size.ts";
import { callerProject } from "../projects/caller-project.ts";
import { webhookPolicyOf } from "../webhooks/webhook-policy.ts";
import { webhookUrlProblem } from "../webhooks/webhook-url.ts";
import { outboxOf } from "../webhooks/outbox-of.ts";
import type { RoomBatch } from "./room/batch-transitions.ts";
import { roomOf } from "../durable-objects/room-of.ts";
import { refuseStrictRowIssues } from "./strict-variables.ts";
import { batchStopped } from "./shapes.ts";

export const batchRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post(
    "/:slug/batch",
    route(
      {
        operationId: "startBatch",
        summary: "Start a batch: one render, and one file, per row of variables, one after another (a POST while a batch runs returns it; 409 render_in_progress while a plain render runs). Each row is a render in every way (split across nodes, strict, its own events and webhook); a failed row does not stop the batch, which then ends failed. Option webhookUrl: also POSTed batch.<status> when the batch ends (see webhooks), else the project's webhook.",
        tag: "renders", access: "user", idempotent: true,
        request: () => ({ params: slugParams(), body: { json: batchRequestSchema() } }),
        responses: () => ({ 202: json(BatchStateSchema, "started: the first row is queued"), 200: json(BatchStateSchema, "the batch already in progress, unchanged") }),
        errors: [400, 404, 409, 422, 429],
      },
      async (c) => {
        const ref = await callerProject(c);
        // Any JSON, then parseBatchRequest (batchRequestSchema, as declared), whose messages name the row.
        const parsed = parseBatchRequest(await readJson(c, z.unknown()));
        if (!parsed.ok) throw badRequest(parsed.error);
        const { options, rows } = parsed.request;
        const hookProblem = options.webhookUrl ? webhookUrlProblem(options.webhookUrl, webhookPolicyOf(c.env)) : null;
        if (hookProblem) throw badRequest(`invalid webhookUrl: ${hookProblem}`);
        if (!(await requireCompositionWithinLimits(c.env, ref, options.composition, options))) {
          throw badRequest(`invalid composition: no file ${options.composition} in project ${ref.slug}`);
        }
        await refuseStrictRowIssues(c.env, ref, options, rows);
        const batch: RoomBatch = {
          id: crypto.randomUUID(),
          userId: ref.userId,
          slug: ref.slug,
          status: "queued",
          createdAt: Date.now(),
          doneAt: null,
          options,
          rows: rows.map((row, index) => ({ index, name: row.name, status: "pending", renderId: null, filename: null, error: null })),
        };
        const result = await roomOf(c.env, ref).startBatch(batch, rows.map((row) => row.variables));
        if ("atCap" in result) throw capReached(c.env, "render");
        if ("renderBusy" in result) {
          throw conflict(`a render is in progress in project ${ref.slug}: start the batch once it has ended, or cancel it (DELETE /api/projects/${ref.slug}/render)`, {}, "render_in_progress");
        }
        return c.json(result.state, result.started ? 202 : 200);
      },
    ),
  )
  .get(
    "/:slug/batch",
    route(
      {
        operationId: "getBatch", summary: "The current or last batch with each row's status, file and error, or { status: none }", tag: "renders", access: "user", request: () => ({ params: slugParams() }),
        responses: () => ({ 200: json(z.union([BatchStateSchema, NoBatchSchema]), "the batch") }),
        errors: [404],
      },
      async (c) => {
        const ref = await callerProject(c);
        return c.json((await roomOf(c.env, ref).getBatch()) ?? { status: "none" as const });
      },
    ),
  )
  .delete(
    "/:slug/batch",
    route(
      {
        operationId: "cancelBatch", summary: "Cancel the batch: the running row's render is cancelled, the rows not started are cancelled", tag: "renders", access: "user", request: () => ({ params: slugParams() }),
        responses: () => ({ 200: json(batchStopped(), "the batch as it ended") }),
        errors: [404],
      },
      async (c) => {
        const ref = await callerProject(c);
        return c.json(await roomOf(c.env, ref).cancelBatch());
      },
    ),
  )
  .get(
    "/:slug/batch/deliveries",
    route(
      {
        operationId: "listBatchDeliveries", summary: "The current or last batch's own webhook deliveries (batch.<status>) with every attempt; each row's render has its own at /api/renders/{id}/deliveries", tag: "webhooks", access: "user", request: () => ({ params: slugParams() }),
        responses: () => ({ 200: json(z.object({ batchId: z.string(), deliveries: z.array(delivery()) }), "the deliveries") }),
        errors: [404],
      },
      async (c) => {
        const ref = await callerProject(c);
        const batch = await roomOf(c.env, ref).getBatch();
        if (!batch) throw notFound(`project ${ref.slug} has run no batch`);
        return c.json({ batchId: batch.id, deliveries: await outboxOf(c.env, ref.userId).deliveriesOf(batch.id) });
      },
    ),
  );
