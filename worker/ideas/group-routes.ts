// /api/groups — public list (read in the request's D1 session, worker/db/read-session.ts); admins create.
import { Hono } from "hono";
import * as z from "zod";
import { answerBookmark, readDb } from "../db/read-session.ts";
import type { AppEnv } from "../http/context.ts";
import { route } from "../http/route.ts";
import { json } from "../openapi/operation.ts";
import { boardWriteOf, requireAdmin, requireWriter } from "./caller.ts";
import { createGroup, listGroups } from "./groups.ts";
import { groupSlug } from "./schemas.ts";
import { group, groupList } from "./shapes.ts";

export const groupRoutes = new Hono<AppEnv>()
  .use(answerBookmark)
  .get(
    "/",
    route(
      { operationId: "listGroups", summary: "Idea groups", tag: "ideas", access: "public", bookmark: true, responses: () => ({ 200: json(groupList(), "the groups") }) },
      async (c) => c.json({ groups: await listGroups(readDb(c)) }),
    ),
  )
  .post(
    "/",
    requireWriter,
    requireAdmin,
    route(
      {
        operationId: "createGroup", summary: "Create a group (admins)", tag: "ideas", access: "writer", bookmark: true,
        request: () => ({ body: { json: z.object({ slug: groupSlug(), name: z.string().trim().min(1).max(80) }), required: true } }),
        responses: () => ({ 201: json(z.object({ group: group() }), "created") }),
        errors: [400, 403, 409, 429],
      },
      async (c, input) => {
        const body = await input.body();
        return c.json({ group: await createGroup(boardWriteOf(c), body.slug, body.name) }, 201);
      },
    ),
  );
