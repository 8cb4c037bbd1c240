// GET /api/usage (render-seconds by UTC day for the last 30 days and the budgets, per account of the caller) and
// PUT /api/budgets/{kind}/{id} (set or remove the daily budget of one of the caller's accounts: their own, their
// personal token's, a bot key's, a connected app's). The person only: a session or personal token; closed to OAuth
// grants (oauth/route-scopes.ts denies what it does not name) and bot keys, so an agent cannot lift its own budget.
import { and, eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { configOf } from "../config/config-of.ts";
import { openDb } from "../db/client.ts";
import { bots } from "../db/schema/ideas.ts";
import type { Env } from "../env.ts";
import type { AppEnv } from "../http/context.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { route } from "../http/route.ts";
import { listBots } from "../ideas/bot-keys.ts";
import { json } from "../openapi/operation.ts";
import { dayOf, lastDays, type AccountKind } from "./charge.ts";
import { readUsage, writeBudget } from "./usage-store.ts";
import { usageView, type NamedAccount } from "./usage-view.ts";
import { budgetBody, budgetParams, budgetSet, USAGE_DAYS, usageSchema } from "./shapes.ts";

/** The person's connected apps; none where OAuth cannot run. The OAuth library is loaded only here. */
async function connectedApps(env: Env, userId: string): Promise<NamedAccount[]> {
  const { issuerProblem } = await import("../oauth/provider.ts");
  if (issuerProblem(env)) return [];
  const { listConnectedApps } = await import("../oauth/grants.ts");
  return (await listConnectedApps(env, userId)).map((app) => ({ kind: "grant" as const, id: app.id, name: app.clientName }));
}

async function namedAccounts(c: Context<AppEnv>, userId: string): Promise<NamedAccount[]> {
  const [botList, apps] = await Promise.all([listBots(openDb(c.env.DB), userId), connectedApps(c.env, userId)]);
  return [
    { kind: "user", id: userId, name: "you (every credential)" },
    { kind: "token", id: userId, name: "personal token" },
    ...botList.map((bot) => ({ kind: "bot" as const, id: bot.id, name: bot.name })),
    ...apps,
  ];
}

/** Whether the person owns the account `kind:id`. */
async function owns(c: Context<AppEnv>, userId: string, kind: AccountKind, id: string): Promise<boolean> {
  if (kind === "user" || kind === "token") return id === userId;
  if (kind === "bot") return !!(await openDb(c.env.DB).select({ id: bots.id }).from(bots).where(and(eq(bots.id, id), eq(bots.ownerId, userId))).get());
  return (await connectedApps(c.env, userId)).some((app) => app.id === id);
}

export const usageRoutes = new Hono<AppEnv>()
  .use("/usage", requireUser)
  .use("/budgets/*", requireUser)
  .get(
    "/usage",
    route(
      {
        operationId: "getUsage", summary: `Render-seconds used per UTC day (the last ${USAGE_DAYS} days) and the daily budgets, for you and each of your credentials`, tag: "budgets", access: "user",
        responses: () => ({ 200: json(usageSchema(), "usage and budgets") }),
      },
      async (c) => {
        const userId = currentUser(c).id;
        const now = Date.now();
        const [rows, named] = await Promise.all([readUsage(openDb(c.env.DB), userId, lastDays(now, USAGE_DAYS)[0]!), namedAccounts(c, userId)]);
        return c.json(usageView(rows, named, configOf(c.env).RENDER_SECONDS_PER_DAY, now));
      },
    ),
  )
  .put(
    "/budgets/:kind/:id",
    route(
      {
        operationId: "setBudget", summary: "Set (or, with null, remove) the daily render-seconds budget of one of your accounts: yours (at most the operator's default), your personal token's, a bot key's or a connected app's. A render past any budget that applies is refused with 429 budget_exceeded.", tag: "budgets", access: "user",
        request: () => ({ params: budgetParams(), body: { json: budgetBody(), required: true } }),
        responses: () => ({ 200: json(budgetSet(), "the budget as it now stands") }),
        errors: [400, 404],
      },
      async (c, input) => {
        const userId = currentUser(c).id;
        const kind = input.param("kind");
        const id = input.param("id");
        const { renderSecondsPerDay } = await input.body();
        if (!(await owns(c, userId, kind, id))) throw notFound(`no ${kind} account ${id} of yours`);
        const operatorDefault = configOf(c.env).RENDER_SECONDS_PER_DAY;
        if (kind === "user" && renderSecondsPerDay !== null && operatorDefault !== undefined && renderSecondsPerDay > operatorDefault) {
          throw badRequest(`invalid renderSecondsPerDay: your own budget can be at most the studio's default of ${operatorDefault} render-seconds a day`);
        }
        await writeBudget(openDb(c.env.DB), userId, { kind, id }, renderSecondsPerDay);
        const budget = renderSecondsPerDay ?? (kind === "user" ? (operatorDefault ?? null) : null);
        return c.json({ kind, id, budget, today: dayOf(Date.now()) });
      },
    ),
  );
