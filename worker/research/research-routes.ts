// /api/research — research records: public reads; bots and admins create; only the record's author (the person
// who created it, through any of their credentials) or an admin changes or deletes it. Reads run in the request's
// D1 session (a nearby replica may answer), writes in one starting at the primary (worker/db/read-session.ts).
import type { Context } from "hono";
import { Hono } from "hono";
import { answerBookmark, readDb } from "../db/read-session.ts";
import type { AppEnv } from "../http/context.ts";
import * as z from "zod";
import { route } from "../http/route.ts";
import { slugParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { badRequest, forbidden } from "../http/errors.ts";
import { parseWith } from "../http/validate.ts";
import { boardWriteOf, currentWriter, isAdmin, requireWriter } from "../ideas/caller.ts";
import type { ResearchChanger } from "./ownership.ts";
import { researchBody, researchListQuery, researchPutBody } from "./schemas.ts";
import { researchList, researchRecord } from "./shapes.ts";
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
  .get(
    "/",
    route(
      {
        operationId: "listResearch", summary: "Research records (filter by kind)", tag: "research", access: "public", bookmark: true,
        request: () => ({ query: researchListQuery() }),
        responses: () => ({ 200: json(researchList(), "the records") }),
        errors: [400],
      },
      async (c, input) => {
        const query = input.query();
        return c.json({ records: await listResearch(readDb(c), query.kind) });
      },
    ),
  )
  .get(
    "/:slug",
    route(
      { operationId: "getResearch", summary: "One research record", tag: "research", access: "public", request: () => ({ params: slugParams() }), bookmark: true, responses: () => ({ 200: json(researchRecord(), "the record") }), errors: [404] },
      async (c, input) => c.json(await getResearch(readDb(c), input.param("slug"))),
    ),
  )
  .post(
    "/",
    requireWriter,
    route(
      {
        operationId: "createResearch", summary: "Create a research record (bots and admins)", tag: "research", access: "writer", bookmark: true,
        request: () => ({ body: { json: researchBody(), required: true } }),
        responses: () => ({ 201: json(researchRecord(), "created") }),
        errors: [400, 403, 409, 429],
      },
      async (c, input) => {
        const creator = creatorOf(c);
        const body = await input.body();
        return c.json(await createResearch(boardWriteOf(c), body, creator), 201);
      },
    ),
  )
  .put(
    "/:slug",
    requireWriter,
    route(
      {
        operationId: "putResearch", summary: "Create (bots and admins) or replace (its author or an admin) a research record", tag: "research", access: "writer", bookmark: true,
        request: () => ({ params: slugParams(), body: { json: researchPutBody(), required: true } }),
        responses: () => ({ 200: json(researchRecord(), "replaced"), 201: json(researchRecord(), "created") }),
        errors: [400, 403, 409, 429],
      },
      async (c, input) => {
        const body = await input.body();
        const slug = input.param("slug");
        if (body.slug !== undefined && body.slug !== slug) throw badRequest("invalid slug: the body's slug differs from the path's");
        const record = parseWith(researchBody(), { ...body, slug });
        // Whether the caller may create is known now; whether they must (no record yet) only in the write's batch.
        const { created, record: stored } = await putResearch(boardWriteOf(c), record, changerOf(c), mayCreate(c) ? creatorOf(c) : null);
        return c.json(stored, created ? 201 : 200);
      },
    ),
  )
  .delete(
    "/:slug",
    requireWriter,
    route(
      {
        operationId: "deleteResearch", summary: "Delete a research record (its author or an admin)", tag: "research", access: "writer", request: () => ({ params: slugParams() }), bookmark: true,
        responses: () => ({ 200: json(z.object({ deleted: z.literal(true) }).loose(), "deleted") }),
        errors: [403, 404, 429],
      },
      async (c, input) => {
        const slug = input.param("slug");
        await deleteResearch(boardWriteOf(c), slug, changerOf(c));
        return c.json({ deleted: true, slug });
      },
    ),
  );
