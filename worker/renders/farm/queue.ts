// The job queue in D1. Claiming is one UPDATE … RETURNING, so two nodes can never take the same job; a claimed
// job holds a lease that progress posts renew.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { JobHolder } from "./job-holder.ts";
import { jobs, renderNodes } from "../../db/schema/renders.ts";
import { configOf } from "../../config/config-of.ts";
import type { Env } from "../../env.ts";

export type JobRow = typeof jobs.$inferSelect;

/** A job's statuses: queued, running (a node holds its lease), then done, failed or cancelled. */
const OPEN: readonly string[] = ["queued", "running"];

/** Whether a job has ended (done, failed or cancelled): nothing will change it any more. */
export function isJobEnded(status: string): boolean {
  return !OPEN.includes(status);
}
export { JOB_KINDS, type JobKind } from "../../../core/protocol/job-kinds.ts";
import { JoinJobOptionsSchema, SegmentJobOptionsSchema } from "../../../core/protocol/node-routes.ts";

const JOIN_PART = JoinJobOptionsSchema.pick({ renderId: true });
const SEGMENT_PART = SegmentJobOptionsSchema.pick({ renderId: true, index: true });

/**
 * A render, segment or join job's place in its render: the render's id and the segment's index ("join", or null for
 * the render job itself). Read with the job kinds' own schemas: options we stored that do not fit are a bug to
 * surface (a 500 and its log line), never a render id of "" or a segment 0 that would send a report to the wrong place.
 */
export function renderPartOf(job: JobRow): { renderId: string; segment: number | "join" | null } {
  if (job.kind === "render") return { renderId: job.id, segment: null };
  const stored: unknown = JSON.parse(job.options);
  if (job.kind === "join") return { renderId: JOIN_PART.parse(stored).renderId, segment: "join" };
  const { renderId, index } = SEGMENT_PART.parse(stored);
  return { renderId, segment: index };
}
import type { JobKind } from "../../../core/protocol/job-kinds.ts";
import { nextJobQuery } from "./claim-order.ts";

export function leaseMs(env: Env): number {
  return configOf(env).JOB_LEASE_MS;
}

export async function enqueueJob(
  db: Db,
  job: { id: string; userId: string; slug: string; kind: JobKind; options: unknown },
): Promise<void> {
  await db.insert(jobs).values({
    id: job.id,
    userId: job.userId,
    slug: job.slug,
    kind: job.kind,
    status: "queued",
    options: JSON.stringify(job.options),
    createdAt: Date.now(),
  });
}

/**
 * Which of a user's jobs hold one of their slots (worker/limits): queued jobs still awaited (queued after
 * `queuedSince`; older ones were abandoned by the request that waited for them) and running jobs whose node holds a
 * live lease.
 */
export interface LiveJobWindow {
  now: number;
  queuedSince: number;
}

function liveJobCount(userId: string, kind: JobKind, w: LiveJobWindow) {
  return sql`(SELECT count(*) FROM ${jobs} WHERE user_id = ${userId} AND kind = ${kind}
    AND ((status = 'queued' AND created_at > ${w.queuedSince}) OR (status = 'running' AND lease_expires_at >= ${w.now})))`;
}

export async function countLiveJobs(db: Db, userId: string, kind: JobKind, w: LiveJobWindow): Promise<number> {
  const row = await db.get<{ n: number }>(sql`SELECT ${liveJobCount(userId, kind, w)} AS n`);
  return row?.n ?? 0;
}

/** Queues the job only while the user has fewer than `limit` live jobs of its kind: one statement, so parallel
 * requests cannot slip past the limit. Returns whether it was queued. */
export async function enqueueJobWithin(
  db: Db,
  job: { id: string; userId: string; slug: string; kind: JobKind; options: unknown },
  limit: number,
  w: LiveJobWindow,
): Promise<boolean> {
  const result = await db.run(sql`
    INSERT INTO ${jobs} (id, user_id, slug, kind, status, options, attempts, created_at)
    SELECT ${job.id}, ${job.userId}, ${job.slug}, ${job.kind}, 'queued', ${JSON.stringify(job.options)}, 0, ${w.now}
    WHERE ${liveJobCount(job.userId, job.kind, w)} < ${limit}`);
  return result.meta.changes === 1;
}

/**
 * Takes the next queued job of the given kinds for this node (nextJobQuery), or null. Counts the attempt. Only while
 * the node's key still exists: a claim long-polls for up to 25 s after its key was checked, and a key revoked
 * meanwhile must not be handed a job (the same statement, so no revocation can land between check and claim).
 */
export async function claimJob(db: Db, nodeId: string, kinds: readonly JobKind[], lease: number): Promise<JobRow | null> {
  const now = Date.now();
  const rows = await db
    .update(jobs)
    .set({
      status: "running",
      nodeId,
      leaseExpiresAt: now + lease,
      attempts: sql`${jobs.attempts} + 1`,
      startedAt: sql`coalesce(${jobs.startedAt}, ${now})`,
    })
    .where(and(eq(jobs.status, "queued"), sql`${jobs.id} IN (${nextJobQuery(kinds)})`, sql`EXISTS (SELECT 1 FROM ${renderNodes} WHERE ${renderNodes.id} = ${nodeId})`))
    .returning();
  return rows[0] ?? null;
}

/**
 * Whether a job of the given kinds is queued now, without taking it: a claim that waited answers "claim again" when
 * one is (node-claim-route.ts), never takes it itself.
 */
export async function hasQueuedJob(db: Db, kinds: readonly JobKind[]): Promise<boolean> {
  const row = await db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.status, "queued"), inArray(jobs.kind, [...kinds]))).limit(1).get();
  return row !== undefined;
}

/**
 * Puts a running job whose lease lapsed back in the queue for another node (the room decides this). Only while the
 * lease is still lapsed and the same node holds it, so a late renewal wins. Returns whether it was put back.
 */
export async function requeueLapsedJob(db: Db, jobId: string, nodeId: string | null, now = Date.now()): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ status: "queued", nodeId: null, leaseExpiresAt: null, stage: null })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "running"), nodeId === null ? sql`node_id IS NULL` : eq(jobs.nodeId, nodeId), sql`lease_expires_at < ${now}`))
    .returning({ id: jobs.id });
  return rows.length === 1;
}

/**
 * Puts a running job back in the queue at once because its holder gives it back (the node is stopping: POST
 * .../release), without waiting for its lease to lapse. Only while that holder (its key and, when it named one, its
 * attempt) still holds it running. `stage` says so until the next node reports. Returns the row put back, or null.
 */
export async function releaseHeldJob(db: Db, jobId: string, holder: { nodeId: string; attempt: number | null }, stage: string): Promise<JobRow | null> {
  const rows = await db
    .update(jobs)
    .set({ status: "queued", nodeId: null, leaseExpiresAt: null, stage })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "running"), eq(jobs.nodeId, holder.nodeId), holder.attempt === null ? undefined : eq(jobs.attempts, holder.attempt)))
    .returning();
  return rows[0] ?? null;
}

export function maxJobAttempts(env: Env): number {
  return configOf(env).MAX_JOB_ATTEMPTS;
}

/** A node's job, only while that node holds it. */
export async function findNodeJob(db: Db, jobId: string, nodeId: string): Promise<JobRow | null> {
  const row = await db.query.jobs.findFirst({ where: and(eq(jobs.id, jobId), eq(jobs.nodeId, nodeId)) });
  return row ?? null;
}

/**
 * A job this node holds right now: running and claimed by this node. A job that is still queued, has ended, was put
 * back after its lease lapsed or went to another node is not; reads of project data go through this.
 */
export async function findRunningNodeJob(db: Db, jobId: string, nodeId: string): Promise<JobRow | null> {
  const row = await db.query.jobs.findFirst({ where: and(eq(jobs.id, jobId), eq(jobs.nodeId, nodeId), eq(jobs.status, "running")) });
  return row ?? null;
}

export async function findJobs(db: Db, ids: readonly string[]): Promise<JobRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(jobs).where(inArray(jobs.id, [...ids])).all();
}

export async function findJob(db: Db, jobId: string): Promise<JobRow | null> {
  return (await db.query.jobs.findFirst({ where: eq(jobs.id, jobId) })) ?? null;
}

export async function renewLease(db: Db, jobId: string, lease: number, stage?: string, holder?: JobHolder): Promise<void> {
  await db
    .update(jobs)
    .set(stage === undefined ? { leaseExpiresAt: Date.now() + lease } : { leaseExpiresAt: Date.now() + lease, stage })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "running"), ...heldBy(holder)));
}

/**
 * The write's guard that the job is still the caller's: its node and, when the call named one, its attempt. A node's
 * call checks the holder when it reads the job (node-caller.ts heldJob), but its lease can lapse and another node
 * claim the job before the write: without this the old holder would renew, set or end the new holder's job.
 */
function heldBy(holder: JobHolder | undefined) {
  if (!holder) return [];
  return holder.attempt === null ? [eq(jobs.nodeId, holder.nodeId)] : [eq(jobs.nodeId, holder.nodeId), eq(jobs.attempts, holder.attempt)];
}

/** A running job's interim result (a preview's port), kept until the job ends and writes its final result. */
export async function setRunningResult(db: Db, jobId: string, result: unknown, holder?: JobHolder): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ result: JSON.stringify(result) })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "running"), ...heldBy(holder)))
    .returning({ id: jobs.id });
  return rows.length === 1;
}

/** The newest queued or running job of a kind for one project (a project has at most one live preview). */
export async function findLiveProjectJob(db: Db, ref: { userId: string; slug: string }, kind: JobKind): Promise<JobRow | null> {
  const row = await db.query.jobs.findFirst({
    where: and(eq(jobs.userId, ref.userId), eq(jobs.slug, ref.slug), eq(jobs.kind, kind), inArray(jobs.status, ["queued", "running"])),
    orderBy: desc(jobs.createdAt),
  });
  return row ?? null;
}

/** Live jobs of a user's projects, for summaries that show every project's preview at once. */
/** The user's queued or running jobs of one kind, as a query that can join a D1 batch. */
export function liveUserJobsQuery(db: Db, userId: string, kind: JobKind) {
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.userId, userId), eq(jobs.kind, kind), inArray(jobs.status, ["queued", "running"])));
}

/** Ends a job unless it already ended (a cancel may have come first). Returns whether this call ended it. */
export async function endJob(
  db: Db,
  jobId: string,
  status: "done" | "failed" | "cancelled",
  detail: { error?: string; result?: unknown } = {},
  /** A node's completion: only while the job is still its own (heldBy). */
  holder?: JobHolder,
): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status,
      finishedAt: Date.now(),
      error: detail.error ?? null,
      result: detail.result === undefined ? null : JSON.stringify(detail.result),
    })
    .where(and(eq(jobs.id, jobId), inArray(jobs.status, ["queued", "running"]), ...heldBy(holder)))
    .returning({ id: jobs.id });
  return rows.length === 1;
}

/** Ends every listed job still queued or running (a render's segments and join when the render ends). */
export async function endJobs(
  db: Db,
  ids: readonly string[],
  status: "done" | "failed" | "cancelled",
  detail: { error?: string } = {},
): Promise<void> {
  if (ids.length === 0) return;
  await endJobsQuery(db, ids, status, detail);
}

/** endJobs as a query that can join a D1 batch (ids not empty). */
export function endJobsQuery(db: Db, ids: readonly string[], status: "done" | "failed" | "cancelled", detail: { error?: string } = {}) {
  return db
    .update(jobs)
    .set({ status, finishedAt: Date.now(), error: detail.error ?? null })
    .where(and(inArray(jobs.id, [...ids]), inArray(jobs.status, ["queued", "running"])));
}
