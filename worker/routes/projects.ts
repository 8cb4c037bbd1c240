// /api/projects — list, create, get, delete. Each handler is scoped to the caller's user id.
import { Hono } from "hono";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { openDb } from "../db/client.ts";
import { deleteFolder } from "../files/delete-files.ts";
import { fileKey } from "../files/keys.ts";
import { listProjectFiles } from "../files/list-files.ts";
import type { AppEnv } from "../http/context.ts";
import { readJson } from "../http/validate.ts";
import { createProject } from "../projects/create-project.ts";
import { createProjectBody } from "../projects/schemas.ts";
import { deleteProjectRow, projectRowsQuery, requireProject } from "../projects/store.ts";
import { latestRendersQuery } from "../renders/store.ts";
import { projectSummary } from "../projects/summary.ts";
import { countAnimationCreated } from "../stats/animations.ts";
import { roomOf } from "../rooms/room-of.ts";
import { renderSummaries } from "../projects/render-summaries.ts";
import { previewState } from "../browser/preview-state.ts";
import { findLiveProjectJob, liveUserJobsQuery } from "../jobs/queue.ts";
import { stopPreview } from "./preview.ts";

async function readMeta(bucket: R2Bucket, key: string): Promise<unknown> {
  const object = await bucket.get(key);
  if (!object) return null;
  try {
    return JSON.parse(await object.text()) as unknown;
  } catch {
    return null; // meta.json is the user's file; a broken one must not break the project page
  }
}

export const projectRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => {
    const db = openDb(c.env.DB);
    const userId = currentUser(c).id;
    // One D1 round trip for the three reads; only renders still in progress wake their room.
    const [rows, latest, previews] = await db.batch([
      projectRowsQuery(db, userId),
      latestRendersQuery(db, userId),
      liveUserJobsQuery(db, userId, "preview"),
    ]);
    const renders = await renderSummaries(c.env, userId, latest);
    const hostname = new URL(c.req.url).hostname;
    const previewOf = (slug: string) => previewState(previews.find((j) => j.slug === slug) ?? null, hostname);
    return c.json({
      projects: rows.map((row) => projectSummary(row, { render: renders.get(row.slug) ?? null, preview: previewOf(row.slug) })),
    });
  })
  .post("/", async (c) => {
    const body = await readJson(c, createProjectBody);
    const db = openDb(c.env.DB);
    const { row, paths } = await createProject(db, c.env.FILES, currentUser(c).id, body);
    await countAnimationCreated(db, row.userId, row.slug);
    const ref = { userId: row.userId, slug: row.slug };
    return c.json(
      { created: true, slug: row.slug, project: projectSummary(row), files: await listProjectFiles(c.env.FILES, ref), written: paths },
      201,
    );
  })
  .get("/:slug", async (c) => {
    const ref = { userId: currentUser(c).id, slug: c.req.param("slug") };
    const db = openDb(c.env.DB);
    const row = await requireProject(db, ref);
    const [meta, files, live, previewJob] = await Promise.all([
      readMeta(c.env.FILES, fileKey(ref, "meta.json")),
      listProjectFiles(c.env.FILES, ref),
      roomOf(c.env, ref).getRender(),
      findLiveProjectJob(db, ref, "preview"),
    ]);
    const render = live ? (({ lines: _lines, ...state }) => state)(live) : null;
    const preview = previewState(previewJob, new URL(c.req.url).hostname);
    return c.json({ project: projectSummary(row, { render, preview }), meta, files });
  })
  .delete("/:slug", async (c) => {
    const ref = { userId: currentUser(c).id, slug: c.req.param("slug") };
    const db = openDb(c.env.DB);
    await requireProject(db, ref);
    // Stop the render and preview first, then files, then the row: a failure midway leaves a project that a
    // retried DELETE finishes, never an invisible folder.
    await roomOf(c.env, ref).stopAll();
    await stopPreview(db, ref, "the project was deleted");
    await deleteFolder(c.env.FILES, ref);
    await deleteProjectRow(db, ref);
    return c.json({ deleted: true, slug: ref.slug });
  });
