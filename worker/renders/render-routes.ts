// /api/projects/:slug/render — start (optionally waiting), read, cancel, and the live event stream.
import { retry } from "../../core/retry.ts";
import { Hono, type Context } from "hono";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { openDb } from "../db/client.ts";
import type { ProjectRef } from "../storage/keys.ts";
import type { AppEnv } from "../http/context.ts";
import { ApiError, badRequest, conflict, unauthorized } from "../http/errors.ts";
import { route } from "../http/route.ts";
import { projectSlugParams } from "../http/path-params.ts";
import { json, media } from "../openapi/operation.ts";
import { renderOptionsSchema } from "../../core/render/render-options.ts";
import { NoCurrentRenderSchema, RenderStateSchema, RenderWithLogSchema } from "../../core/protocol/render-state.ts";
import { DryRunAnswerSchema } from "../../core/protocol/render-quote.ts";
import { renderEventsHeaders, renderEventsQuery, startRenderQuery } from "./schemas.ts";
import * as z from "zod";
import { callerProject } from "../projects/caller-project.ts";
import { requireProject } from "../projects/store.ts";
import { strictLintFailures } from "./strict-lint.ts";
import { refuseStrictVariableIssues } from "./strict-variables.ts";
import { queuedRender } from "./state.ts";
import { quoteRender } from "./quote-render.ts";
import { renderInputsKey } from "./render-inputs.ts";
import { settled } from "../../core/settled.ts";
import { isDownloadableRow, recentProjectRenders, renderListEntry } from "./store.ts";
import { roomOf } from "../durable-objects/room-of.ts";
import { wakeRenderNodes } from "./farm/render-node-container.ts";
import { webhookPolicyOf } from "../webhooks/webhook-policy.ts";
import { webhookUrlProblem } from "../webhooks/webhook-url.ts";
import { capReached } from "../limits/work-caps.ts";
import { callerCharge } from "../budgets/caller-accounts.ts";
import { budgetExceeded } from "../budgets/budget-exceeded.ts";
import { budgetFit, reservationOf } from "../budgets/charge.ts";
import { budgetFigures } from "../budgets/charge-statements.ts";
import { requireCompositionWithinLimits } from "../limits/composition-size.ts";
import { streamCredentialOf, streamRequest } from "../auth/stream-request.ts";

async function noneState(c: Context<AppEnv>, ref: ProjectRef) {
  const recent = await recentProjectRenders(openDb(c.env.DB), ref.userId, ref.slug);
  return { status: "none" as const, recent: recent.filter(isDownloadableRow).map(renderListEntry) };
}

/**
 * Holds until the render ends. A room evicted meanwhile breaks the call; the wait is asked again of a new stub. The
 * room watches the caller's credential meanwhile: when it ends (rotated, signed out), the answer is its 401.
 */
async function waitForRenderEnd(c: Context<AppEnv>, ref: ProjectRef, renderId: string) {
  const credential = await streamCredentialOf(c);
  // A broken call (the room evicted or moved mid-wait) is asked again; an ApiError is the answer itself.
  const outcome = await retry(
    async () => {
      const ended = await roomOf(c.env, ref).waitForEnd(renderId, credential);
      if (ended && "credentialEnded" in ended) throw unauthorized("invalid or revoked token");
      return ended;
    },
    { attempts: 21, backoff: { firstMs: 100, factor: 1 }, retryable: (error) => !(error instanceof ApiError), signal: c.req.raw.signal },
  );
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

export const renderRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post(
    "/:slug/render",
    route(
      {
        operationId: "startRender",
        summary: "Start a render (one at a time per project; a POST while one runs returns it; 409 batch_in_progress while a batch runs). When a done render of the project had the very same inputs (every project file by content, the options, the variables, the render engine), answers 200 at once with a new done render marked reusedFrom, its file a copy, no node used, nothing charged (the render cache; force: true renders anew). The 202 carries its quote (frames, size, estimated node and wall seconds, queue place); with dryRun, answers the quote alone and starts nothing. With wait, answers when it ends, with its log. Option webhookUrl: POSTed when it ends (see webhooks), else the project's webhook.",
        tag: "renders", access: "user", idempotent: true,
        request: () => ({ params: projectSlugParams(), query: startRenderQuery(), body: { json: renderOptionsSchema() } }),
        responses: () => ({ 202: json(RenderStateSchema, "queued, with its quote"), 200: json(z.union([RenderWithLogSchema, RenderStateSchema, DryRunAnswerSchema]), "the render already in progress, or a render reused from the render cache (done, with reusedFrom), or (wait) the ended render with its log, or (dryRun) the render's quote alone: nothing started, stored or queued") }),
        errors: [400, 404, 409, 422, 429],
      },
      async (c, input) => {
        const ref = { userId: currentUser(c).id, slug: input.param("slug") };
        // The declared renderOptionsSchema, with the query's wait folded in (a JSON null is no options).
        const { wait } = input.query();
        const options = await input.body({ given: (body) => (body === null ? {} : wait === undefined ? body : { ...(body as object), wait }) });
        const { dryRun, force, ...renderOptions } = options;
        // The project's read and the quote's reads (its queue place and the free nodes) side by side: one round trip to
        // D1, not two. The quote only reads; a missing project's 404 wins over it.
        // A dry run's read of the caller's budgets goes beside them too: it says whether the render would fit now.
        const charge = callerCharge(c);
        const now = Date.now();
        // The render cache's key of its inputs (R2 only: the project's listing) is read beside them as well, and
        // awaited only once the render passed its checks: a refused one answers without waiting for it.
        const inputsKey = dryRun ? undefined : renderInputsKey(c.env, ref, renderOptions);
        if (inputsKey) void settled(inputsKey); // its failure is the render's, awaited below
        const [, quote, figures] = await Promise.all([
          requireProject(openDb(c.env.DB), ref),
          quoteRender(c.env, ref, renderOptions),
          dryRun ? budgetFigures(openDb(c.env.DB), charge, now) : [],
        ]);
        // The same destination rule as a project's webhook, at once: a 400 now rather than a delivery refused later.
        const hookProblem = options.webhookUrl ? webhookUrlProblem(options.webhookUrl, webhookPolicyOf(c.env)) : null;
        if (hookProblem) throw badRequest(`invalid webhookUrl: ${hookProblem}`);
        if (!(await requireCompositionWithinLimits(c.env, ref, options.composition, options))) {
          throw badRequest(`invalid composition: no file ${options.composition} in project ${ref.slug}`);
        }
        await refuseStrictVariableIssues(c.env, ref, options);
        if (dryRun) return c.json({ dryRun: true as const, quote, budget: budgetFit(figures, reservationOf(quote), now) }, 200);
        const failWith = options.strict ? await strictLintFailures(c.env, ref, options.composition) : undefined;
        // A strict render failed at once is not keyed: only a done render is ever reused.
        const keyed = failWith?.length ? {} : { cacheKey: await inputsKey };
        const render = { ...queuedRender(ref, renderOptions), quote, charge, ...keyed };
        const room = roomOf(c.env, ref);
        const result = await room.startRender(render, failWith?.length ? failWith : undefined, !force);
        if ("atCap" in result) throw capReached(c.env, "render");
        if ("overBudget" in result) throw budgetExceeded(result.overBudget);
        if ("batchBusy" in result) {
          throw conflict(`a batch is rendering in project ${ref.slug}: follow it at GET /api/projects/${ref.slug}/batch, or cancel it with DELETE`, {}, "batch_in_progress");
        }
        const { started, view } = result;
        // A reused render is done already (the render cache): no node to wake, nothing queued, so its answer is a 200.
        const queued = started && !view.reusedFrom;
        if (queued && !failWith?.length) c.executionCtx.waitUntil(wakeRenderNodes(c.env));
        if (options.wait) return c.json((await waitForRenderEnd(c, ref, view.id)) ?? view);
        const { lines: _lines, ...state } = view;
        return c.json(state, queued ? 202 : 200);
      },
    ),
  )
  .get(
    "/:slug/render",
    route(
      {
        operationId: "getRender", summary: "The current or last render with its log, or { status: none, recent }", tag: "renders", access: "user", request: () => ({ params: projectSlugParams() }),
        responses: () => ({ 200: json(z.union([RenderWithLogSchema, NoCurrentRenderSchema]), "the render") }),
        errors: [404],
      },
      async (c, input) => {
        const ref = await callerProject(c, input.param("slug"));
        const view = await roomOf(c.env, ref).getRender();
        return c.json(view ?? (await noneState(c, ref)));
      },
    ),
  )
  .delete(
    "/:slug/render",
    route(
      { operationId: "cancelRender", summary: "Cancel the render", tag: "renders", access: "user", request: () => ({ params: projectSlugParams() }), responses: () => ({ 200: json(z.object({ stopped: z.boolean() }), "whether a render was stopped") }), errors: [404] },
      async (c, input) => {
        const ref = await callerProject(c, input.param("slug"));
        return c.json(await roomOf(c.env, ref).cancel());
      },
    ),
  )
  .get(
    "/:slug/render/events",
    route(
      { operationId: "renderEvents", summary: "Server-Sent Events: snapshot, start, line, end", tag: "renders", access: "user", request: () => ({ params: projectSlugParams(), query: renderEventsQuery(), headers: renderEventsHeaders() }), responses: () => ({ 200: media("text/event-stream", "an event stream: `snapshot` first (the current state with its log), then `start`, `line`, `end`; a stream opened on an ended render closes after its snapshot, and every stream closes after `end` and when its credential ends (rotated, revoked, signed out)") }), errors: [404] },
      async (c, input) => {
        const { lastEventId: queryEventId } = input.query();
        // The snapshot for a project that never rendered is read beside the project's own check (one round trip);
        // it is sent only once that check passed.
        const [ref, none] = await Promise.all([callerProject(c, input.param("slug")), noneState(c, { userId: currentUser(c).id, slug: input.param("slug") })]);
        const url = new URL("https://room/events");
        url.searchParams.set("none", JSON.stringify(none));
        // The header (EventSource's) comes first; the room reads the id and gives the snapshot for one it does not keep.
        const lastEventId = c.req.header("Last-Event-ID") ?? queryEventId?.toString();
        if (lastEventId !== undefined) url.searchParams.set("lastEventId", lastEventId);
        return roomOf(c.env, ref).fetch(await streamRequest(c, url));
      },
    ),
  );
