// /api/projects/:slug/batch — one render per row of variables, one after another (the room runs them:
// room/batch-run.ts): start, read, cancel. Follow it on the project's event stream (`batch` events) or here.
import { Hono } from "hono";
import * as z from "zod";
import { batchRequestBody } from "../../core/render/batch-request.ts";
import { BatchStateSchema, NoBatchSchema } from "../../core/protocol/render-state.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppEnv } from "../http/context.ts";
import { badRequest, conflict, notFound } from "../http/errors.ts";
import { route } from "../http/route.ts";
import { projectSlugParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { delivery } from "../webhooks/shapes.ts";
import { capReached } from "../limits/work-caps.ts";
import { callerCharge } from "../budgets/caller-accounts.ts";
import { budgetExceeded } from "../budgets/budget-exceeded.ts";
import { openDb } from "../db/client.ts";
import { budgetFit, reservationOf } from "../budgets/charge.ts";
import { budgetFigures } from "../budgets/charge-statements.ts";
import { requireCompositionWithinLimits } from "../limits/composition-size.ts";
import { callerProject } from "../projects/caller-project.ts";
import { requireProject } from "../projects/store.ts";
import { webhookPolicyOf } from "../webhooks/webhook-policy.ts";
import { webhookUrlProblem } from "../webhooks/webhook-url.ts";
import { outboxOf } from "../webhooks/outbox-of.ts";
import type { RoomBatch } from "./room/batch-transitions.ts";
import { quoteBatchRow } from "./room/batch-run.ts";
import { roomOf } from "../durable-objects/room-of.ts";
import { refuseStrictRowIssues } from "./strict-variables.ts";
import { batchStopped } from "./shapes.ts";
import { quoteRender } from "./quote-render.ts";
import { batchDryRun } from "./quote-estimate.ts";
import { BatchDryRunAnswerSchema } from "../../core/protocol/render-quote.ts";

export const batchRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post(
    "/:slug/batch",
    route(
      {
        operationId: "startBatch",
        summary: "Start a batch: one render, and one file, per row of variables, one after another (a POST while a batch runs returns it; 409 render_in_progress while a plain render runs). Each row is a render in every way (split across nodes, strict, its own events and webhook); a failed row does not stop the batch, which then ends failed. Option webhookUrl: also POSTed batch.<status> when the batch ends (see webhooks), else the project's webhook.",
        tag: "renders", access: "user", idempotent: true,
        request: () => ({ params: projectSlugParams(), body: { json: batchRequestBody() } }),
        responses: () => ({ 202: json(BatchStateSchema, "started: the first row is queued"), 200: json(z.union([BatchStateSchema, BatchDryRunAnswerSchema]), "the batch already in progress, unchanged, or (dryRun) one row's quote and the batch's totals: nothing started, stored or queued") }),
        errors: [400, 404, 409, 422, 429],
      },
      async (c, input) => {
        const ref = { userId: currentUser(c).id, slug: input.param("slug") };
        // Read with the declared body, whose refusals name the row (`rows[1].variables`).
        const { options, rows } = await input.body();
        // The project's read and the first row's quote side by side: one round trip to D1, as a render POST does. The
        // quote only reads, and only informs: one that cannot be read leaves the row without one (said in the log),
        // as a later row's (room/batch-run.ts). A missing project's 404 wins over it.
        const [, firstQuote] = await Promise.all([
          requireProject(openDb(c.env.DB), ref),
          quoteBatchRow(c.env, ref, { ...options, variables: rows[0]?.variables ?? {} }, { slug: ref.slug, row: 0 }),
        ]);
        const hookProblem = options.webhookUrl ? webhookUrlProblem(options.webhookUrl, webhookPolicyOf(c.env)) : null;
        if (hookProblem) throw badRequest(`invalid webhookUrl: ${hookProblem}`);
        if (!(await requireCompositionWithinLimits(c.env, ref, options.composition, options))) {
          throw badRequest(`invalid composition: no file ${options.composition} in project ${ref.slug}`);
        }
        await refuseStrictRowIssues(c.env, ref, options, rows);
        const charge = callerCharge(c);
        if (options.dryRun) {
          const now = Date.now();
          const [quote, figures] = await Promise.all([firstQuote ?? quoteRender(c.env, ref, options), budgetFigures(openDb(c.env.DB), charge, now)]);
          return c.json({ ...batchDryRun(rows.length, quote), budget: budgetFit(figures, rows.length * reservationOf(quote), now) }, 200);
        }
        const batch: RoomBatch = {
          id: crypto.randomUUID(),
          userId: ref.userId,
          slug: ref.slug,
          status: "queued",
          createdAt: Date.now(),
          doneAt: null,
          options,
          rows: rows.map((row, index) => ({ index, name: row.name, status: "pending", renderId: null, filename: null, error: null })),
          charge,
        };
        const result = await roomOf(c.env, ref).startBatch(batch, rows.map((row) => row.variables), firstQuote);
        if ("atCap" in result) throw capReached(c.env, "render");
        if ("overBudget" in result) throw budgetExceeded(result.overBudget);
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
        operationId: "getBatch", summary: "The current or last batch with each row's status, file and error, or { status: none }", tag: "renders", access: "user", request: () => ({ params: projectSlugParams() }),
        responses: () => ({ 200: json(z.union([BatchStateSchema, NoBatchSchema]), "the batch") }),
        errors: [404],
      },
      async (c, input) => {
        const ref = await callerProject(c, input.param("slug"));
        return c.json((await roomOf(c.env, ref).getBatch()) ?? { status: "none" as const });
      },
    ),
  )
  .delete(
    "/:slug/batch",
    route(
      {
        operationId: "cancelBatch", summary: "Cancel the batch: the running row's render is cancelled, the rows not started are cancelled", tag: "renders", access: "user", request: () => ({ params: projectSlugParams() }),
        responses: () => ({ 200: json(batchStopped(), "the batch as it ended") }),
        errors: [404],
      },
      async (c, input) => {
        const ref = await callerProject(c, input.param("slug"));
        return c.json(await roomOf(c.env, ref).cancelBatch());
      },
    ),
  )
  .get(
    "/:slug/batch/deliveries",
    route(
      {
        operationId: "listBatchDeliveries", summary: "The current or last batch's own webhook deliveries (batch.<status>) with every attempt; each row's render has its own at /api/renders/{id}/deliveries", tag: "webhooks", access: "user", request: () => ({ params: projectSlugParams() }),
        responses: () => ({ 200: json(z.object({ batchId: z.string(), deliveries: z.array(delivery()) }), "the deliveries") }),
        errors: [404],
      },
      async (c, input) => {
        const ref = await callerProject(c, input.param("slug"));
        const batch = await roomOf(c.env, ref).getBatch();
        if (!batch) throw notFound(`project ${ref.slug} has run no batch`);
        return c.json({ batchId: batch.id, deliveries: await outboxOf(c.env, ref.userId).deliveriesOf(batch.id) });
      },
    ),
  );
