// The budget routes' answers and bodies (usage-routes.ts), declared once: the OpenAPI document shows them and the
// dashboard takes their types (dashboard/src/lib/types.ts). Pure: zod only.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { ACCOUNT_KINDS } from "./charge.ts";

/** The days GET /api/usage covers. */
export const USAGE_DAYS = 30;

const kinds = () => z.enum(ACCOUNT_KINDS as ["user", "token", "bot", "grant"]);

export const usageSchema = lazy(() => {
  const day = z.object({ date: z.string().describe("a UTC day, YYYY-MM-DD"), renderSeconds: z.number() });
  const account = z.object({
    kind: kinds().describe("user: every render of yours, whatever started it; token: your personal token's; bot: a bot key's; grant: an app connected through OAuth"),
    id: z.string(),
    name: z.string(),
    gone: z.boolean().describe("a revoked bot key or a disconnected app: its use still counts; its budget can no longer be set"),
    budget: z.number().nullable().describe("render-seconds per UTC day; null: no budget"),
    budgetSource: z.enum(["own", "operator"]).nullable().describe("own: set on this account; operator: the studio's default (RENDER_SECONDS_PER_DAY)"),
    usedToday: z.number().describe("render-seconds charged today: the actual use of ended renders and the estimates of renders in progress"),
    left: z.number().nullable(),
    days: z.array(day).describe(`the last ${USAGE_DAYS} UTC days, oldest first`),
  });
  return z.object({
    today: z.string(),
    resetsAt: z.string().describe("the next UTC midnight, when today's use stops counting"),
    operatorDefault: z.number().nullable(),
    accounts: z.array(account),
  });
});

export const budgetBody = lazy(() =>
  z.object({ renderSecondsPerDay: z.number().positive().max(86_400_000).nullable().describe("null removes the budget (yours: back to the operator's default)") }),
);

export const budgetParams = lazy(() => z.object({ kind: kinds(), id: z.string().max(200) }));

export const budgetSet = lazy(() => z.object({ kind: kinds(), id: z.string(), budget: z.number().nullable(), today: z.string() }));
