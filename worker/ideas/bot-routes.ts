// /api/bots — a signed-in human issues, lists and revokes the keys their idea-board bots write with.
import { Hono, type Context } from "hono";
import * as z from "zod";
import { issueBotKey, listBots, revokeBot } from "./bot-keys.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { forbidden, notFound, unauthorized } from "../http/errors.ts";
import { readJson } from "../http/validate.ts";
import { boardWriteOf, requireWriter } from "./caller.ts";

export const createBotBody = z.object({ name: z.string().trim().min(1).max(60) });

/** Bots cannot mint more bots: only the human owner holds this power. */
function ownerId(c: Context<AppEnv>) {
  if (c.get("credential") === "bot") throw forbidden("bots cannot manage bot keys");
  const user = c.get("user");
  if (!user) throw unauthorized(c.get("authProblem"));
  return user.id;
}

export const botRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const id = ownerId(c);
    return c.json({ bots: await listBots(openDb(c.env.DB), id) });
  })
  .post("/", requireWriter, async (c) => {
    const id = ownerId(c);
    const body = await readJson(c, createBotBody);
    return c.json(await issueBotKey(boardWriteOf(c), id, body.name), 201);
  })
  .delete("/:id", requireWriter, async (c) => {
    const id = ownerId(c);
    if (!(await revokeBot(boardWriteOf(c), id, c.req.param("id")))) throw notFound("no such bot");
    return c.json({ revoked: true, id: c.req.param("id") });
  });
