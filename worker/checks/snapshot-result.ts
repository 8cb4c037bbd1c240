// A snapshot job's outcome, read the same way wherever it is read: the waiting POST …/snapshot, GET
// …/snapshot/:id (snapshot-job-routes.ts), and the node's completion, which announces the written frames to the
// project's room once (worker/renders/farm/node-routes.ts), whichever way the result is read afterwards.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { encodePath } from "../../core/paths/project-path.ts";
import { MAX_SNAPSHOT_FRAMES } from "../../core/browser/browser-options.ts";
import { parseJson } from "../../core/parse-text.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { logEvent } from "../http/log.ts";
import { announceFiles } from "../projects/files/announce-files.ts";
import type { JobRow } from "../renders/farm/queue.ts";
import { fileKey, type ProjectRef } from "../storage/keys.ts";
import type { SnapshotJob } from "./shapes.ts";

/** What the node reports when it completes a snapshot job (parsed, never trusted blindly). */
const snapshotJobResult = lazy(() =>
  z.object({
    // Each frame named costs every read of the job an R2 look: never more than a snapshot makes.
    snapshots: z.array(z.object({ path: z.string().startsWith("snapshots/") })).max(MAX_SNAPSHOT_FRAMES, `at most ${MAX_SNAPSHOT_FRAMES} frames`).default([]),
    log: z.array(z.string()).default([]),
  }),
);
type SnapshotJobResult = z.infer<ReturnType<typeof snapshotJobResult>>;

/** Where a project's files are served: the frames' URLs start here. */
export const filesBaseOf = (origin: string, slug: string) => `${origin}/api/projects/${slug}/files/`;

/** The node's report, or why it cannot be read; none (a job that failed before reporting) is an empty one. */
function readResult(value: unknown): { ok: true; value: SnapshotJobResult } | { ok: false; why: string } {
  const parsed = snapshotJobResult().safeParse(value ?? {});
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, why: parsed.error.issues[0]?.message ?? "unknown shape" };
}

/** The node's report as stored on the job row; one that does not fit is a 502. */
export function parseSnapshotResult(text: string | null) {
  const json = text ? parseJson(text) : { ok: true as const, value: {} };
  if (!json.ok) throw new ApiError(502, "snapshot failed: the render node reported a result that is not JSON");
  const result = readResult(json.value);
  if (!result.ok) throw new ApiError(502, `snapshot failed: the render node reported a result the studio cannot read (${result.why})`);
  return result.value;
}

/** The frames that exist in the project's files, with their sizes and URLs (under `filesBase`, …/files/). */
export async function snapshotEntries(env: Env, ref: ProjectRef, filesBase: string, snapshots: readonly { path: string }[]) {
  const entries = await Promise.all(
    snapshots.map(async ({ path }) => {
      const head = await env.FILES.head(fileKey(ref, path));
      return head ? { path, size: head.size, url: filesBase + encodePath(path) } : null;
    }),
  );
  return entries.filter((e) => e !== null);
}

/** A snapshot job as GET …/snapshot/:id answers it. */
export async function snapshotJobState(env: Env, job: JobRow, filesBase: string): Promise<SnapshotJob> {
  const ended = job.status !== "queued" && job.status !== "running";
  const { snapshots, log } = ended ? parseSnapshotResult(job.result) : { snapshots: [], log: [] };
  return {
    id: job.id,
    status: job.status as SnapshotJob["status"],
    stage: job.stage,
    error: job.error,
    snapshots: job.status === "done" ? await snapshotEntries(env, job, filesBase, snapshots) : [],
    log,
    createdAt: new Date(job.createdAt).toISOString(),
    finishedAt: job.finishedAt === null ? null : new Date(job.finishedAt).toISOString(),
  };
}

/**
 * Tells the project's open pages about the frames a node reported when it completed the job: once, at completion,
 * whether or not anyone waits for the result. A report that cannot be read announces nothing (its reader gets a 502).
 */
export async function announceSnapshotFiles(env: Env, job: JobRow, reported: unknown): Promise<void> {
  const result = readResult(reported);
  if (!result.ok) {
    logEvent("warn", "checks.snapshot_unreadable", { jobId: job.id, why: result.why, answer: "nothing announced" });
    return;
  }
  if (result.value.snapshots.length === 0) return;
  await announceFiles(env, { userId: job.userId, slug: job.slug }, { written: result.value.snapshots.map((s) => s.path) });
}
