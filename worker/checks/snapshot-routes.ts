// POST /api/projects/:slug/snapshot — PNG frames and a contact sheet in <project>/snapshots/, taken on a render
// node with the render pipeline's page loading and seeking, so each frame is the one a render would show.
import { Hono } from "hono";
import * as z from "zod";
import { snapshotBody } from "../../core/browser/browser-options.ts";
import { encodePath } from "../../core/paths/project-path.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { waitForJob } from "./wait-for-job.ts";
import { openDb } from "../db/client.ts";
import { announceFiles } from "../projects/files/announce-files.ts";
import { deletePath } from "../projects/files/delete-files.ts";
import { fileKey } from "../storage/keys.ts";
import { baseUrlOf } from "../http/base-url.ts";
import type { AppEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { route } from "../http/route.ts";
import { slugParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { BROWSER_ERRORS, snapshotResult } from "./shapes.ts";
import { enqueueCappedJob, requireJobSlot } from "./capped-jobs.ts";
import { requireBrowserJobReady } from "./browser-job-ready.ts";
import { requireProject } from "../projects/store.ts";
import { parseJson } from "../../core/parse-text.ts";

/** What the node reports when it completes a snapshot job (parsed, never trusted blindly). */
const snapshotJobResult = z.object({
  snapshots: z.array(z.object({ path: z.string().startsWith("snapshots/") })).default([]),
  log: z.array(z.string()).default([]),
});

/** The node's report; none (a job that failed before reporting) is an empty one. One that does not fit is a 502. */
function parseResult(text: string | null) {
  const json = text ? parseJson(text) : { ok: true as const, value: {} };
  if (!json.ok) throw new ApiError(502, "snapshot failed: the render node reported a result that is not JSON");
  const parsed = snapshotJobResult.safeParse(json.value);
  if (!parsed.success) throw new ApiError(502, `snapshot failed: the render node reported a result the studio cannot read (${parsed.error.issues[0]?.message ?? "unknown shape"})`);
  return parsed.data;
}

export const snapshotRoutes = new Hono<AppEnv>().use(requireUser).post(
  "/:slug/snapshot",
  route(
    {
      operationId: "snapshotProject", summary: "PNG frames and a contact sheet in snapshots/", tag: "checks", access: "user",
      request: () => ({ params: slugParams(), body: { json: snapshotBody() } }),
      responses: () => ({ 200: json(snapshotResult(), "the frames") }),
      errors: [...BROWSER_ERRORS, 422],
    },
    async (c, input) => {
      const ref = { userId: currentUser(c).id, slug: input.param("slug") };
      const db = openDb(c.env.DB);
      const project = await requireProject(db, ref);
      const options = await input.body();
      await requireBrowserJobReady(c.env, db, ref, options.at, project.duration, "take snapshots");
      await requireJobSlot(db, c.env, ref.userId, "snapshot");
      // Cleared on every call, before the job exists, so no earlier frame can be mistaken for a new one.
      await deletePath(c.env, ref, "snapshots");
      const id = crypto.randomUUID();
      await enqueueCappedJob(db, c.env, { id, userId: ref.userId, slug: ref.slug, kind: "snapshot", options });
      const job = await waitForJob(db, c.env, id, "snapshot", c.req.raw.signal);
      const { snapshots, log } = parseResult(job.result);
      if (job.status !== "done") {
        throw new ApiError(422, `snapshot failed: ${job.error ?? job.status}`, { ok: false, snapshots: [], log });
      }
      const base = `${baseUrlOf(c)}/api/projects/${ref.slug}/files/`;
      const entries = await Promise.all(
        snapshots.map(async ({ path }) => {
          const head = await c.env.FILES.head(fileKey(ref, path));
          return head ? { path, size: head.size, url: base + encodePath(path) } : null;
        }),
      );
      const written = entries.filter((e) => e !== null);
      await announceFiles(c.env, ref, { written: written.map((e) => e.path) });
      return c.json({ ok: true, snapshots: written, log });
    },
  ),
);
