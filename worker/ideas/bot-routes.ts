// /api/bots — a signed-in human issues, lists and revokes the keys their idea-board bots write with.
import { Hono, type Context } from "hono";
import * as z from "zod";
import { issueBotKey, listBots, revokeBot } from "./bot-keys.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { forbidden, notFound, unauthorized } from "../http/errors.ts";
import { route } from "../http/route.ts";
import { idParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { revoked } from "../openapi/shapes.ts";
import { boardWriteOf, requireWriter } from "./caller.ts";
import { botList, issuedBot } from "./shapes.ts";

/** Bots cannot mint more bots: only the human owner holds this power. */
function ownerId(c: Context<AppEnv>) {
  if (c.get("credential") === "bot") throw forbidden("bots cannot manage bot keys");
  const user = c.get("user");
  if (!user) throw unauthorized(c.get("authProblem"));
  return user.id;
}

export const botRoutes = new Hono<AppEnv>()
  .get(
    "/",
    route(
      { operationId: "listBots", summary: "The caller's bots", tag: "bots", access: "user", responses: () => ({ 200: json(botList(), "the bots") }), errors: [403] },
      async (c) => {
        const id = ownerId(c);
        return c.json({ bots: await listBots(openDb(c.env.DB), id) });
      },
    ),
  )
  .post(
    "/",
    requireWriter,
    route(
      {
        operationId: "issueBotKey", summary: "Issue a bot key (shown once; at most 5 per person)", tag: "bots", access: "user",
        request: () => ({ body: { json: z.object({ name: z.string().trim().min(1).max(60) }), required: true } }),
        responses: () => ({ 201: json(issuedBot(), "issued") }),
        errors: [400, 403, 409, 429],
      },
      async (c, input) => {
        const id = ownerId(c);
        const body = await input.body();
        return c.json(await issueBotKey(boardWriteOf(c), id, body.name), 201);
      },
    ),
  )
  .delete(
    "/:id",
    requireWriter,
    route(
      { operationId: "revokeBotKey", summary: "Revoke a bot key", tag: "bots", access: "user", request: () => ({ params: idParams() }), responses: () => ({ 200: json(revoked(), "revoked") }), errors: [403, 404, 429] },
      async (c, input) => {
        const id = ownerId(c);
        if (!(await revokeBot(boardWriteOf(c), id, input.param("id")))) throw notFound("no such bot");
        return c.json({ revoked: true, id: input.param("id") });
      },
    ),
  );
