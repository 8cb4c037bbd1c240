// /api/research — research records: public reads; bots and admins write.
import type { MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { badRequest, forbidden } from "../http/errors.ts";
import { parseWith, readJson } from "../http/validate.ts";
import { currentWriter, isAdmin, requireWriter } from "../ideas/caller.ts";
import { researchBody, researchListQuery, researchPutBody } from "../research/schemas.ts";
import { createResearch, getResearch, listResearch, putResearch } from "../research/store.ts";

const requireBotOrAdmin: MiddlewareHandler<AppEnv> = async function requireBotOrAdmin(c, next) {
  if (c.get("credential") !== "bot" && !isAdmin(c)) throw forbidden("only bots and admins can write research records");
  await next();
};

export const researchRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const query = parseWith(researchListQuery, c.req.query());
    return c.json({ records: await listResearch(openDb(c.env.DB), query.kind) });
  })
  .get("/:slug", async (c) => c.json(await getResearch(openDb(c.env.DB), c.req.param("slug"))))
  .post("/", requireWriter, requireBotOrAdmin, async (c) => {
    const body = await readJson(c, researchBody);
    return c.json(await createResearch(openDb(c.env.DB), body, currentWriter(c).name), 201);
  })
  .put("/:slug", requireWriter, requireBotOrAdmin, async (c) => {
    const body = await readJson(c, researchPutBody);
    const slug = c.req.param("slug");
    if (body.slug !== undefined && body.slug !== slug) throw badRequest("invalid slug: the body's slug differs from the path's");
    const input = parseWith(researchBody, { ...body, slug });
    const { created, record } = await putResearch(openDb(c.env.DB), input, currentWriter(c).name);
    return c.json(record, created ? 201 : 200);
  });
