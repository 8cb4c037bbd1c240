// /api/ideas and /api/enrichments: the idea board. Reads are public; writes go through requireWriter. Reads run in
// a D1 session that a nearby replica may serve, writes in one that starts at the primary; every answer carries the
// session's bookmark (X-D1-Bookmark) so a client sending it back reads its own writes (worker/db/read-session.ts).
import { Hono } from "hono";
import { answerBookmark, readDb } from "../db/read-session.ts";
import type { AppEnv } from "../http/context.ts";
import { badRequest, forbidden } from "../http/errors.ts";
import { decodeCursor } from "../http/cursor.ts";
import { route } from "../http/route.ts";
import { json } from "../openapi/operation.ts";
import { actorOf, boardWriteOf, currentWriter, isAdmin, requireWriter } from "./caller.ts";
import { changeIdea } from "./change-idea.ts";
import { addComment, addEnrichment } from "./contributions.ts";
import { createIdea } from "./create-idea.ts";
import { findSimilar } from "./find-similar.ts";
import { getIdea } from "./get-idea.ts";
import { listIdeas, type ListCaller } from "./list-ideas.ts";
import { ideaRecord } from "./records.ts";
import { deleteComment, deleteIdea, editComment } from "./own-contributions.ts";
import * as z from "zod";
import { checkIdeaBody, commentBody, createIdeaBody, enrichmentBody, IDEA_SORTS, ideaIdParams, enrichmentIdParams, commentIdParams, listIdeasQuery, patchIdeaBody, editCommentBody } from "./schemas.ts";
import { comment, createdIdea, deleted, duplicate, enrichment, idea, ideaDetail, ideaPage, similarIdeas, vote } from "./shapes.ts";
import { toggleEnrichmentVote, toggleIdeaVote } from "./toggle-vote.ts";
import { DUPLICATE_THRESHOLD } from "../../core/similarity/thresholds.ts";

/** Votes belong to the person: a bot sees (and toggles) its owner's vote. */
const voterOf = (c: Parameters<typeof actorOf>[0]) => actorOf(c)?.person ?? null;

/** The caller as the board's reads see them: their vote (the person's) and their author key (for `mine`). */
const callerOf = (c: Parameters<typeof actorOf>[0]): ListCaller => ({ voter: voterOf(c), key: actorOf(c)?.key ?? null });

export const ideaRoutes = new Hono<AppEnv>()
  .use(answerBookmark)
  .get(
    "/",
    route(
      {
        operationId: "listIdeas", summary: `Ideas, sorted (${IDEA_SORTS.join(", ")}), filtered by group and status, paged with limit and next (or offset)`, tag: "ideas", access: "optional", bookmark: true,
        request: () => ({ query: listIdeasQuery() }),
        responses: () => ({ 200: json(ideaPage(), "a page of ideas") }),
        errors: [400, 404],
      },
      async (c, input) => {
        const query = input.query();
        if (query.next !== undefined) {
          const position = decodeCursor("ideas", query.next);
          if (!("offset" in position)) throw badRequest("invalid query next: not a cursor of the ideas list", "invalid_cursor");
          if (c.req.query("offset") !== undefined) throw badRequest("invalid query next: give next or offset, not both", "invalid_query");
          query.offset = position.offset;
        }
        // `mine` and `admin` are about the caller: what the dashboard offers them (edit, delete, status, group).
        return c.json({ ...(await listIdeas(readDb(c), query, callerOf(c))), admin: isAdmin(c) });
      },
    ),
  )
  // Read-only despite POST (the text may be long): public and not rate limited, so it can run on every keystroke.
  .post(
    "/check",
    route(
      {
        operationId: "checkIdea", summary: "Similar ideas, best first (read-only)", tag: "ideas", access: "optional", bookmark: true,
        request: () => ({ body: { json: checkIdeaBody(), required: true } }),
        responses: () => ({ 200: json(similarIdeas(), "similar ideas") }),
        errors: [400],
      },
      async (c, input) => {
        const body = await input.body();
        const similar = (await findSimilar(readDb(c), body, voterOf(c))).slice(0, 10);
        return c.json({
          duplicate: (similar[0]?.score ?? 0) >= DUPLICATE_THRESHOLD,
          similar: similar.map((s) => ({ score: s.score, idea: ideaRecord(s.row, s.row.voted) })),
        });
      },
    ),
  )
  .post(
    "/",
    requireWriter,
    route(
      {
        operationId: "postIdea", summary: "Post an idea; 409 with the existing one unless force", tag: "ideas", access: "writer", idempotent: true, bookmark: true,
        request: () => ({ body: { json: createIdeaBody(), required: true } }),
        responses: () => ({ 201: json(createdIdea(), "posted"), 409: json(duplicate(), "a similar idea exists (code duplicate_idea): vote for it instead") }),
        errors: [400, 403, 404, 422, 429],
      },
      async (c, input) => {
        const body = await input.body();
        // The duplicate check reads in the request's read session (a replica may answer), opened before the write's
        // use of it; the insert goes to the primary (create-idea.ts says why that is enough).
        const read = readDb(c);
        const idea = await createIdea(read, boardWriteOf(c), currentWriter(c), body);
        return c.json({ created: true, idea }, 201);
      },
    ),
  )
  .get(
    "/:id",
    route(
      {
        operationId: "getIdea", summary: "One idea with its enrichments and comments", tag: "ideas", access: "optional", request: () => ({ params: ideaIdParams() }), bookmark: true,
        responses: () => ({ 200: json(ideaDetail(), "the idea") }),
        errors: [404],
      },
      async (c, input) => {
        const detail = await getIdea(readDb(c), input.param("id"), callerOf(c));
        return c.json({ ...detail, admin: isAdmin(c) });
      },
    ),
  )
  .patch(
    "/:id",
    requireWriter,
    route(
      {
        operationId: "changeIdea", summary: "Change status or group (admins)", tag: "ideas", access: "writer", bookmark: true,
        request: () => ({ params: ideaIdParams(), body: { json: patchIdeaBody(), required: true } }),
        responses: () => ({ 200: json(z.object({ idea: idea() }), "changed") }),
        errors: [400, 403, 404, 409, 429],
      },
      async (c, input) => {
        const id = input.param("id");
        const body = await input.body();
        if ((body.status !== undefined || body.group !== undefined) && !isAdmin(c)) throw forbidden("only admins can do this");
        // The author check and the change are one batch (change-idea.ts): a refused request changes nothing.
        return c.json({ idea: await changeIdea(boardWriteOf(c), id, currentWriter(c), body) });
      },
    ),
  )
  .delete(
    "/:id",
    requireWriter,
    route(
      {
        operationId: "deleteIdea", summary: "Delete an idea with its votes, enrichments and comments (its author or an admin)", tag: "ideas", access: "writer", request: () => ({ params: ideaIdParams() }), bookmark: true,
        responses: () => ({ 200: json(deleted(), "deleted") }),
        errors: [403, 404, 429],
      },
      async (c, input) => {
        const id = input.param("id");
        await deleteIdea(boardWriteOf(c), id, currentWriter(c), isAdmin(c));
        return c.json({ deleted: true, id });
      },
    ),
  )
  .post(
    "/:id/vote",
    requireWriter,
    route(
      {
        operationId: "voteIdea", summary: "Toggle the caller's vote (a bot key's vote only adds)", tag: "ideas", access: "writer", request: () => ({ params: ideaIdParams() }), bookmark: true,
        responses: () => ({ 200: json(vote(), "the vote") }),
        errors: [403, 404, 429],
      },
      async (c, input) => {
        const id = input.param("id");
        return c.json({ id, ...(await toggleIdeaVote(boardWriteOf(c), id, currentWriter(c))) });
      },
    ),
  )
  .post(
    "/:id/enrich",
    requireWriter,
    route(
      {
        operationId: "enrichIdea", summary: "Add an enrichment", tag: "ideas", access: "writer", bookmark: true,
        request: () => ({ params: ideaIdParams(), body: { json: enrichmentBody(), required: true } }),
        responses: () => ({ 201: json(z.object({ enrichment: enrichment() }), "added") }),
        errors: [400, 403, 404, 429],
      },
      async (c, input) => {
        const id = input.param("id");
        const body = await input.body();
        return c.json({ enrichment: await addEnrichment(boardWriteOf(c), id, currentWriter(c), body) }, 201);
      },
    ),
  )
  .post(
    "/:id/comments",
    requireWriter,
    route(
      {
        operationId: "commentIdea", summary: "Add a comment", tag: "ideas", access: "writer", idempotent: true, bookmark: true,
        request: () => ({ params: ideaIdParams(), body: { json: commentBody(), required: true } }),
        responses: () => ({ 201: json(z.object({ comment: comment() }), "added") }),
        errors: [400, 403, 404, 422, 429],
      },
      async (c, input) => {
        const id = input.param("id");
        const body = await input.body();
        return c.json({ comment: await addComment(boardWriteOf(c), id, currentWriter(c), body) }, 201);
      },
    ),
  );

export const enrichmentRoutes = new Hono<AppEnv>().use(answerBookmark).post(
  "/:id/vote",
  requireWriter,
  route(
    {
      operationId: "voteEnrichment", summary: "Toggle the caller's vote on an enrichment", tag: "ideas", access: "writer", request: () => ({ params: enrichmentIdParams() }), bookmark: true,
      responses: () => ({ 200: json(vote(), "the vote") }),
      errors: [403, 404, 429],
    },
    async (c, input) => {
      const id = input.param("id");
      return c.json({ id, ...(await toggleEnrichmentVote(boardWriteOf(c), id, currentWriter(c))) });
    },
  ),
);

/** /api/comments/:id — the author edits a comment; the author or an admin deletes it. */
export const commentRoutes = new Hono<AppEnv>()
  .use(answerBookmark)
  .patch(
    "/:id",
    requireWriter,
    route(
      {
        operationId: "editComment", summary: "Rewrite a comment (its author)", tag: "ideas", access: "writer", bookmark: true,
        request: () => ({ params: commentIdParams(), body: { json: editCommentBody(), required: true } }),
        responses: () => ({ 200: json(z.object({ comment: comment() }), "changed") }),
        errors: [400, 403, 404, 429],
      },
      async (c, input) => {
        const id = input.param("id");
        const body = await input.body();
        return c.json({ comment: await editComment(boardWriteOf(c), id, currentWriter(c), body.body) });
      },
    ),
  )
  .delete(
    "/:id",
    requireWriter,
    route(
      {
        operationId: "deleteComment", summary: "Delete a comment (its author or an admin)", tag: "ideas", access: "writer", request: () => ({ params: commentIdParams() }), bookmark: true,
        responses: () => ({ 200: json(deleted(), "deleted") }),
        errors: [403, 404, 429],
      },
      async (c, input) => {
        const id = input.param("id");
        await deleteComment(boardWriteOf(c), id, currentWriter(c), isAdmin(c));
        return c.json({ deleted: true, id });
      },
    ),
  );
