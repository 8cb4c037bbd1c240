// /api/groups — public list; admins create.
import { Hono } from "hono";
import * as z from "zod";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { readJson } from "../http/validate.ts";
import { requireAdmin, requireWriter } from "../ideas/caller.ts";
import { createGroup, listGroups } from "../ideas/groups.ts";
import { groupSlug } from "../ideas/schemas.ts";

export const createGroupBody = z.object({ slug: groupSlug, name: z.string().trim().min(1).max(80) });

export const groupRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json({ groups: await listGroups(openDb(c.env.DB)) }))
  .post("/", requireWriter, requireAdmin, async (c) => {
    const body = await readJson(c, createGroupBody);
    return c.json({ group: await createGroup(openDb(c.env.DB), body.slug, body.name) }, 201);
  });
