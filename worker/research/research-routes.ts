// /api/research — research records: public reads; bots and admins create; only the record's author (the person
// who created it, through any of their credentials) or an admin changes or deletes it. Reads run in the request's
// D1 session (a nearby replica may answer), writes in one starting at the primary (worker/db/read-session.ts).
import type { Context } from "hono";
import { Hono } from "hono";
import { answerBookmark, readDb } from "../db/read-session.ts";
import type { AppEnv } from "../http/context.ts";
import { readQuery } from "../http/query.ts";
import { badRequest, forbidden } from "../http/errors.ts";
import { parseWith, readJson } from "../http/validate.ts";
import { boardWriteOf, currentWriter, isAdmin, requireWriter } from "../ideas/caller.ts";
import type { ResearchChanger } from "./ownership.ts";
import { researchBody, researchListQuery, researchPutBody } from "./schemas.ts";
import { createResearch, deleteResearch, getResearch, listResearch, ONLY_CREATORS, putResearch, type ResearchCreator } from "./store.ts";

/** Bots and admins create records. */
const mayCreate = (c: Context<AppEnv>) => c.get("credential") === "bot" || isAdmin(c);

/** A new record belongs to the caller: its author is the caller's name, its owner the person behind the caller. */
function creatorOf(c: Context<AppEnv>): ResearchCreator {
  if (!mayCreate(c)) throw forbidden(ONLY_CREATORS);
  const writer = currentWriter(c);
  return { author: writer.name, ownerId: writer.personId };
}

function changerOf(c: Context<AppEnv>): ResearchChanger {
  return { personId: currentWriter(c).personId, admin: isAdmin(c) };
}

export const researchRoutes = new Hono<AppEnv>()
  .use(answerBookmark)
  .get("/", async (c) => {
    const query = readQuery(c, researchListQuery);
    return c.json({ records: await listResearch(readDb(c), query.kind) });
  })
  .get("/:slug", async (c) => c.json(await getResearch(readDb(c), c.req.param("slug"))))
  .post("/", requireWriter, async (c) => {
    const creator = creatorOf(c);
    const body = await readJson(c, researchBody);
    return c.json(await createResearch(boardWriteOf(c), body, creator), 201);
  })
  .put("/:slug", requireWriter, async (c) => {
    const body = await readJson(c, researchPutBody);
    const slug = c.req.param("slug");
    if (body.slug !== undefined && body.slug !== slug) throw badRequest("invalid slug: the body's slug differs from the path's");
    const input = parseWith(researchBody, { ...body, slug });
    // Whether the caller may create is known now; whether they must (no record yet) only in the write's batch.
    const { created, record } = await putResearch(boardWriteOf(c), input, changerOf(c), mayCreate(c) ? creatorOf(c) : null);
    return c.json(record, created ? 201 : 200);
  })
  .delete("/:slug", requireWriter, async (c) => {
    const slug = c.req.param("slug");
    await deleteResearch(boardWriteOf(c), slug, changerOf(c));
    return c.json({ deleted: true, slug });
  });
