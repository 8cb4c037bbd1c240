// The webhook API:
//   POST   /api/webhooks/secret              → { secret, createdAt }  (a new signing secret, shown only here; rotates)
//   GET    /api/webhooks/secret              → { configured, createdAt }
//   GET    /api/projects/:slug/webhook       → { slug, webhookUrl }   (null when none)
//   PUT    /api/projects/:slug/webhook       { url } → { slug, webhookUrl }
//   DELETE /api/projects/:slug/webhook       → { slug, webhookUrl: null }
//   GET    /api/renders/:id/deliveries       → { renderId, deliveries: [delivery with its attempts] }
import { and, eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import * as z from "zod";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { openDb } from "../db/client.ts";
import { renders } from "../db/schema/renders.ts";
import type { AppEnv } from "../http/context.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { route } from "../http/route.ts";
import { slugParams, idParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { isoTime } from "../openapi/shapes.ts";
import { delivery, projectWebhook, secretInfo } from "./shapes.ts";
import { requireProject } from "../projects/store.ts";
import { outboxOf } from "./outbox-of.ts";
import { webhookPolicyOf } from "./webhook-policy.ts";
import { webhookUrlProblem } from "./webhook-url.ts";

/** The caller's project (another user's answers as missing) with its row, whose createdAt ties a webhook to it. */
async function callerProjectRow(c: Context<AppEnv>) {
  const ref = { userId: currentUser(c).id, slug: c.req.param("slug") ?? "" };
  return { ref, project: await requireProject(openDb(c.env.DB), ref) };
}

export const webhookSecretRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post(
    "/secret",
    route(
      {
        operationId: "rotateWebhookSecret", summary: "A new webhook signing secret, shown only here (the old one stops signing)", tag: "webhooks", access: "user",
        responses: () => ({ 201: json(z.object({ secret: z.string().startsWith("whsec_"), createdAt: isoTime() }), "the new secret") }),
      },
      async (c) => c.json(await outboxOf(c.env, currentUser(c).id).rotateSecret(), 201),
    ),
  )
  .get(
    "/secret",
    route(
      { operationId: "getWebhookSecretInfo", summary: "Whether a signing secret exists, and since when", tag: "webhooks", access: "user", responses: () => ({ 200: json(secretInfo(), "the secret's state") }) },
      async (c) => c.json(await outboxOf(c.env, currentUser(c).id).secretInfo()),
    ),
  );

export const projectWebhookRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get(
    "/:slug/webhook",
    route(
      { operationId: "getProjectWebhook", summary: "The project's webhook", tag: "webhooks", access: "user", request: () => ({ params: slugParams() }), responses: () => ({ 200: json(projectWebhook(), "the webhook, or null") }), errors: [404] },
      async (c) => {
        const { ref, project } = await callerProjectRow(c);
        return c.json({ slug: ref.slug, webhookUrl: await outboxOf(c.env, ref.userId).projectHook(ref.slug, project.createdAt) });
      },
    ),
  )
  .put(
    "/:slug/webhook",
    route(
      {
        operationId: "setProjectWebhook",
        summary: "Set the project's webhook: POSTed a signed render.done, render.failed or render.cancelled (see webhooks) when a render without its own webhookUrl ends",
        tag: "webhooks", access: "user",
        request: () => ({ params: slugParams(), body: { json: z.strictObject({ url: z.string().describe("http(s) URL called on render.done, render.failed and render.cancelled") }) } }),
        responses: () => ({ 200: json(projectWebhook(), "the webhook") }),
        errors: [400, 404],
      },
      async (c, input) => {
        const { ref, project } = await callerProjectRow(c);
        const { url } = await input.body();
        const problem = webhookUrlProblem(url, webhookPolicyOf(c.env));
        if (problem) throw badRequest(`invalid url: ${problem}`);
        await outboxOf(c.env, ref.userId).setProjectHook(ref.slug, url, project.createdAt);
        return c.json({ slug: ref.slug, webhookUrl: url });
      },
    ),
  )
  .delete(
    "/:slug/webhook",
    route(
      { operationId: "deleteProjectWebhook", summary: "Remove the project's webhook", tag: "webhooks", access: "user", request: () => ({ params: slugParams() }), responses: () => ({ 200: json(projectWebhook(), "no webhook") }), errors: [404] },
      async (c) => {
        const { ref, project } = await callerProjectRow(c);
        await outboxOf(c.env, ref.userId).setProjectHook(ref.slug, null, project.createdAt);
        return c.json({ slug: ref.slug, webhookUrl: null });
      },
    ),
  );

export const renderDeliveryRoutes = new Hono<AppEnv>().use(requireUser).get(
  "/:id/deliveries",
  route(
    {
      operationId: "listRenderDeliveries", summary: "A render's webhook deliveries with every attempt", tag: "webhooks", access: "user", request: () => ({ params: idParams() }),
      responses: () => ({ 200: json(z.object({ renderId: z.string(), deliveries: z.array(delivery()) }), "the deliveries") }),
      errors: [404],
    },
    async (c, input) => {
      const userId = currentUser(c).id;
      const id = input.param("id");
      // Another user's render answers exactly as a missing one.
      const row = await openDb(c.env.DB).select({ id: renders.id }).from(renders).where(and(eq(renders.id, id), eq(renders.userId, userId))).get();
      if (!row) throw notFound(`no render with id ${id}`);
      return c.json({ renderId: id, deliveries: await outboxOf(c.env, userId).deliveriesOf(id) });
    },
  ),
);
