// The render-node protocol: the request and response of every /api/node route, in one place. The Worker validates
// requests and the node validates responses with these same schemas (and the tests drive the routes with them).
import * as z from "zod";
import { JobKindSchema } from "./job-kinds.ts";
import { ProgressEventSchema } from "./progress.ts";
import { RenderPlanSchema, SegmentRangeSchema } from "./render-plan.ts";

/** Longest claim long poll, in seconds (?wait=). */
export const MAX_CLAIM_WAIT_S = 25;
/** A claim's long poll without ?wait=, in seconds. */
export const DEFAULT_CLAIM_WAIT_S = 20;

// POST /api/node/jobs/claim?wait=<seconds>
export const ClaimRequestSchema = z.object({
  nodeId: z.string().max(100).optional(),
  kinds: z.array(JobKindSchema).min(1).optional(),
});
export type ClaimRequest = z.infer<typeof ClaimRequestSchema>;

export const ClaimedJobSchema = z.object({
  id: z.string().min(1),
  kind: JobKindSchema,
  slug: z.string(),
  options: z.record(z.string(), z.unknown()).default({}),
  composition: z.string().nullish(),
  leaseMs: z.number().positive().default(30_000),
  /** 1 for the first try; a job given to another node after a lost lease comes back with 2, 3, … */
  attempt: z.number().int().positive().default(1),
  /**
   * A render job: the previous render of the same project and composition the node may carry unchanged segments
   * from (incremental re-render), read through GET .../previous/output and .../previous/manifest; absent: none.
   */
  carryFrom: z.string().min(1).nullish(),
});
export type ClaimedJob = z.infer<typeof ClaimedJobSchema>;

/**
 * Header of every call about a claimed job: the attempt the node claimed (ClaimedJob.attempt). Processes that share
 * one node key (every container instance presents CONTAINER_NODE_KEY) are one node to the key, so the key alone
 * cannot tell the process holding a job from one that lost it (its lease lapsed, the job went to another process):
 * a call of an attempt that is no longer the job's is answered as from a node that no longer holds it. Optional:
 * a call without it is judged by the key alone.
 */
export const JOB_ATTEMPT_HEADER = "x-job-attempt";
/** 200 with a job: the claim found it queued the moment it asked, and took it. */
export const ClaimResponseSchema = z.object({ job: ClaimedJobSchema });
/**
 * 200 without a job: work of the claim's kinds was queued while it waited; claim again at once. A claim that waited
 * never takes a job: the Worker cannot tell whether the node behind it is still there (local workerd never reports a
 * client that went away, Cloudflare does not promise to), and a job handed to a dead request sits out a whole lease.
 * Only a claim that finds work the moment it asks takes it, and its node is alive then: it just asked.
 */
export const ClaimAgainSchema = z.object({ job: z.null(), claimAgain: z.literal(true) });
/** Every 200 answer of a claim (204: no work within the wait). */
export const ClaimAnswerSchema = z.union([ClaimResponseSchema, ClaimAgainSchema]);

// GET /api/node/jobs/:id/files
export const JobFileSchema = z.object({ path: z.string().min(1), size: z.number().int().nonnegative(), mtime: z.string().optional() });
export type JobFile = z.infer<typeof JobFileSchema>;
export const FilesResponseSchema = z.object({ files: z.array(JobFileSchema) });

// POST /api/node/jobs/:id/progress
export const ProgressRequestSchema = z.object({
  lines: z.array(z.string().max(4000)).max(1000),
  /** What the node is doing now, in words; a server-side timeout names it. */
  stage: z.string().max(300).optional(),
  /** Frames done for a render, segment or join job. */
  progress: ProgressEventSchema.optional(),
});
export type ProgressRequest = z.infer<typeof ProgressRequestSchema>;
/** `cancelled`: stop now (the render was cancelled, or this job was given to another node). */
export const CancelledResponseSchema = z.object({ cancelled: z.boolean() });

// POST /api/node/jobs/:id/preview
export const PreviewRequestSchema = z.object({ port: z.number().int().min(1).max(65_535) });

// PUT /api/node/jobs/:id/files/snapshots/<path>
export const ProjectFileWriteResponseSchema = z.object({ ok: z.literal(true), path: z.string(), size: z.number() });

// PUT /api/node/jobs/:id/output
export const OutputResponseSchema = z.object({ ok: z.literal(true), size: z.number() });

// PUT /api/node/jobs/:id/poster (a render or join job: the finished render's poster image, before its completion)
export const PosterResponseSchema = z.object({ ok: z.literal(true), size: z.number() });

// PUT /api/node/jobs/:id/manifest (a render job: what the next render of the same composition carries from, JSON)
export const ManifestResponseSchema = z.object({ ok: z.literal(true), size: z.number() });
/** A manifest is ~20 bytes a frame: a 10-minute render at 60 fps is under 1 MB. */
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;

// POST /api/node/jobs/:id/plan (a render job, after loading the composition once)
export const PlanRequestSchema = z.object({ plan: RenderPlanSchema });
/** One segment: render it whole as before. More: this job ends after the plan, the segments are queued as jobs. */
export const PlanResponseSchema = z.object({ segments: z.array(SegmentRangeSchema).min(1), cancelled: z.boolean() });

// POST /api/node/jobs/:id/complete
export const CompleteRequestSchema = z.object({
  ok: z.boolean(),
  error: z.string().max(20_000).optional(),
  result: z.unknown().optional(),
  /** A render or join job that succeeded without a poster: why (the render is done all the same; GET render says it). */
  posterError: z.string().max(2000).optional(),
  /** A render job that carried segments from the previous render it was handed (ClaimedJob.carryFrom). */
  carried: z.object({
    from: z.string().min(1),
    segments: z.number().int().nonnegative(),
    frames: z.number().int().nonnegative(),
    /** The render's fixed segments in all. */
    of: z.number().int().positive(),
  }).optional(),
});
export type CompleteRequest = z.infer<typeof CompleteRequestSchema>;
export const CompleteResponseSchema = z.object({ ok: z.boolean(), error: z.string().optional() });

// POST /api/node/jobs/:id/release (a node that is stopping: SIGTERM, a deploy, a container stopped). The job goes back
// to the queue at once for another node instead of waiting out its lease; the try counts as an attempt, as a lost
// lease does. Render, segment, join, snapshot and check jobs (a preview lives on its node: it is stopped instead).
export const ReleaseRequestSchema = z.object({
  /** Why the node gives it back, for the render's log (e.g. "SIGTERM"). */
  reason: z.string().max(300).optional(),
});
export type ReleaseRequest = z.infer<typeof ReleaseRequestSchema>;
/** `released`: false when the job was no longer this node's to give (ended, cancelled, or already put back). */
export const ReleaseResponseSchema = z.object({ released: z.boolean() });

// Options of the render farm's job kinds (`render` jobs carry RenderOptions, core/render/render-options.ts).
export const SegmentJobOptionsSchema = z.object({
  renderId: z.string(),
  index: z.number().int().nonnegative(),
  fromFrame: z.number().int().nonnegative(),
  toFrame: z.number().int().positive(),
  plan: RenderPlanSchema,
  render: z.record(z.string(), z.unknown()),
});
export type SegmentJobOptions = z.infer<typeof SegmentJobOptionsSchema>;
export const JoinJobOptionsSchema = z.object({
  renderId: z.string(),
  segments: z.array(z.number().int().nonnegative()).min(1),
  plan: RenderPlanSchema,
  render: z.record(z.string(), z.unknown()),
});
export type JoinJobOptions = z.infer<typeof JoinJobOptionsSchema>;
