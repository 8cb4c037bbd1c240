// /api/projects — list, create, get, delete. Each handler is scoped to the caller's user id.
import { Hono } from "hono";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { openDb } from "../db/client.ts";
import { deleteFolder } from "./files/delete-files.ts";
import { fileKey } from "../storage/keys.ts";
import { listProjectFiles } from "../storage/list-objects.ts";
import type { AppEnv } from "../http/context.ts";
import { route } from "../http/route.ts";
import { slugParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { createdProject, projectDetail, projectList } from "./shapes.ts";
import * as z from "zod";
import { createProject } from "./create-project.ts";
import { CREATE_PROJECT_BODY, createProjectBody, listProjectsQuery } from "./schemas.ts";
import { pageLimit } from "../http/query.ts";
import { keysetOf, pageOf } from "../http/cursor.ts";
import { deleteProjectRow, projectRowsQuery, requireProject } from "./store.ts";
import { latestRendersQuery } from "../renders/store.ts";
import { projectSummary } from "./summary.ts";
import { countAnimationCreated } from "../stats/animations.ts";
import { roomOf } from "../durable-objects/room-of.ts";
import { renderSummaries } from "./render-summaries.ts";
import { previewHostname, previewState } from "../checks/preview-state.ts";
import { findLiveProjectJob, liveUserJobsQuery } from "../renders/farm/queue.ts";
import { stopPreview } from "../checks/preview-routes.ts";
import { signProjectLink } from "../capabilities/content-links.ts";
import { ownerBinding, ownerBindingQuery } from "../capabilities/store.ts";
import { VIEW_LINK_SECONDS } from "../capabilities/lifetimes.ts";
import { attemptAsync, parseJson } from "../../core/parse-text.ts";
import { logEvent } from "../http/log.ts";

async function readMeta(bucket: R2Bucket, key: string): Promise<unknown> {
  const object = await bucket.get(key);
  if (!object) return null;
  // meta.json is the user's file: one that cannot be read or is not JSON must not break the project page.
  const text = await attemptAsync(() => object.text());
  if (!text.ok) {
    logEvent("warn", "projects.meta_unreadable", { problem: text.problem, answer: "no meta" });
    return null;
  }
  const meta = parseJson(text.value);
  return meta.ok ? meta.value : null; // not JSON: no meta, as a missing file
}

export const projectRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get(
    "/",
    route(
      {
        operationId: "listProjects", summary: "The caller's projects, newest first (paged with limit and next)", tag: "projects", access: "user",
        request: () => ({ query: listProjectsQuery() }),
        responses: () => ({ 200: json(projectList(), "the projects") }),
        errors: [400],
      },
      async (c, input) => {
        const query = input.query();
        const after = keysetOf("projects", query.next);
        const limit = pageLimit(query);
        const db = openDb(c.env.DB);
        const userId = currentUser(c).id;
        // One D1 round trip for the three reads; only renders still in progress wake their room.
        const [fetched, latest, previews, binding] = await db.batch([
          projectRowsQuery(db, userId, limit === undefined ? undefined : { limit, after }),
          latestRendersQuery(db, userId),
          liveUserJobsQuery(db, userId, "preview"),
          ownerBindingQuery(db, userId),
        ]);
        const { items: rows, next } = pageOf("projects", fetched, limit, (row) => ({ at: row.createdAt, id: row.id }));
        const renders = await renderSummaries(c.env, userId, latest);
        const hostname = previewHostname(c.env);
        const previewOf = (slug: string) => previewState(previews.find((j) => j.slug === slug) ?? null, hostname);
        // Each entry also carries a one-hour contentUrl (for thumbnails and links; see GET /api/projects/:slug).
        const links = await Promise.all(rows.map((row) => signProjectLink(c.env, binding[0]?.nonce ?? "", row, VIEW_LINK_SECONDS)));
        return c.json({
          projects: rows.map((row, i) => ({
            ...projectSummary(row, { render: renders.get(row.slug) ?? null, preview: previewOf(row.slug) }),
            contentUrl: links[i]!.url,
          })),
          next,
        });
      },
    ),
  )
  .post(
    "/",
    route(
      {
        operationId: "createProject", summary: "Create a project (a starter composition unless html is given)", tag: "projects", access: "user", idempotent: true,
        request: () => ({ body: { json: createProjectBody(), required: true, limit: CREATE_PROJECT_BODY } }),
        responses: () => ({ 201: json(createdProject(), "created") }),
        errors: [400, 409, 413, 415, 422],
      },
      async (c, input) => {
        // Read with the upload limit declared for the whole body; larger files go up one at a time with PUT.
        const body = await input.body();
        const db = openDb(c.env.DB);
        const { row, paths } = await createProject(c.env, currentUser(c).id, body);
        await countAnimationCreated(db, row.userId, row.slug);
        const ref = { userId: row.userId, slug: row.slug };
        return c.json(
          { created: true, slug: row.slug, project: projectSummary(row), files: await listProjectFiles(c.env.FILES, ref), written: paths },
          201,
        );
      },
    ),
  )
  .get(
    "/:slug",
    route(
      {
        operationId: "getProject", summary: "A project with meta, files and a one-hour contentUrl", tag: "projects", access: "user", request: () => ({ params: slugParams() }),
        responses: () => ({ 200: json(projectDetail(), "the project") }),
        errors: [404],
      },
      async (c, input) => {
        const ref = { userId: currentUser(c).id, slug: input.param("slug") };
        const db = openDb(c.env.DB);
        // The D1 reads together (one round trip), then the rest once the project is known to exist.
        const [row, previewJob, binding] = await Promise.all([requireProject(db, ref), findLiveProjectJob(db, ref, "preview"), ownerBinding(db, ref.userId)]);
        const [meta, files, live, content] = await Promise.all([
          readMeta(c.env.FILES, fileKey(ref, "meta.json")),
          listProjectFiles(c.env.FILES, ref),
          roomOf(c.env, ref).getRender(),
          signProjectLink(c.env, binding ?? "", row, VIEW_LINK_SECONDS),
        ]);
        const render = live ? (({ lines: _lines, ...state }) => state)(live) : null;
        const preview = previewState(previewJob, previewHostname(c.env));
        // contentUrl: the project on the content origin for an hour (play page; append a path for a file).
        return c.json({ project: projectSummary(row, { render, preview }), meta, files, contentUrl: content.url, contentExpiresAt: content.expiresAt });
      },
    ),
  )
  .delete(
    "/:slug",
    route(
      { operationId: "deleteProject", summary: "Delete a project (stops its render and preview)", tag: "projects", access: "user", request: () => ({ params: slugParams() }), responses: () => ({ 200: json(z.object({ deleted: z.literal(true), slug: z.string() }), "deleted") }), errors: [404] },
      async (c, input) => {
        const ref = { userId: currentUser(c).id, slug: input.param("slug") };
        const db = openDb(c.env.DB);
        await requireProject(db, ref);
        // Stop the render and preview first, then files, then the row: a failure midway leaves a project that a
        // retried DELETE finishes, never an invisible folder.
        await roomOf(c.env, ref).stopAll();
        await stopPreview(db, ref, "the project was deleted");
        await deleteFolder(c.env, ref);
        await deleteProjectRow(db, ref);
        return c.json({ deleted: true, slug: ref.slug });
      },
    ),
  );
