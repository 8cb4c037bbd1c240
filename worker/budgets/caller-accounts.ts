// The accounts a request's render is charged to (charge.ts): the user's, and the credential's own (personal token,
// bot key, OAuth grant; a dashboard session has none). The grant is read from the in-process request MCP made
// (oauth/oauth-caller.ts), never from anything on the wire.
import type { Context } from "hono";
import { currentUser } from "../auth/middleware.ts";
import { configOf } from "../config/config-of.ts";
import type { AppEnv } from "../http/context.ts";
import { grantOf } from "../oauth/oauth-caller.ts";
import type { Account, RenderCharge } from "./charge.ts";

function credentialAccount(c: Context<AppEnv>, userId: string): Account | null {
  const grant = grantOf(c.req.raw);
  if (grant) return { kind: "grant", id: grant.grantId, label: `the budget of the connected app (OAuth grant ${grant.grantId})` };
  const bot = c.get("bot");
  if (bot && c.get("credential") === "bot") return { kind: "bot", id: bot.id, label: `the budget of bot key "${bot.name}"` };
  if (c.get("credential") === "token") return { kind: "token", id: userId, label: "the budget of your personal token" };
  return null;
}

export function callerCharge(c: Context<AppEnv>): RenderCharge {
  const user = currentUser(c);
  const own = credentialAccount(c, user.id);
  const userDefault = configOf(c.env).RENDER_SECONDS_PER_DAY;
  return { accounts: [{ kind: "user", id: user.id, label: "your daily budget" }, ...(own ? [own] : [])], ...(userDefault === undefined ? {} : { userDefault }) };
}
