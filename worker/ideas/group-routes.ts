// /api/groups — public list (read in the request's D1 session, worker/db/read-session.ts); admins create.
import { Hono } from "hono";
import * as z from "zod";
import { answerBookmark, readDb } from "../db/read-session.ts";
import type { AppEnv } from "../http/context.ts";
import { readJson } from "../http/validate.ts";
import { boardWriteOf, requireAdmin, requireWriter } from "./caller.ts";
import { createGroup, listGroups } from "./groups.ts";
import { groupSlug } from "./schemas.ts";

export const createGroupBody = z.object({ slug: groupSlug, name: z.string().trim().min(1).max(80) });

export const groupRoutes = new Hono<AppEnv>()
  .use(answerBookmark)
  .get("/", async (c) => c.json({ groups: await listGroups(readDb(c)) }))
  .post("/", requireWriter, requireAdmin, async (c) => {
    const body = await readJson(c, createGroupBody);
    return c.json({ group: await createGroup(boardWriteOf(c), body.slug, body.name) }, 201);
  });
