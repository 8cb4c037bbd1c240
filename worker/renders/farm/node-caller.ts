// Who is calling the node protocol, and the job it may touch: a node key reads and writes only for a job it holds.
import type { Context } from "hono";
import { openDb } from "../../db/client.ts";
import type { AppEnv, RenderNode } from "../../http/context.ts";
import { ApiError, notFound, unauthorized } from "../../http/errors.ts";
import { attemptOf, isHolder, type JobHolder } from "./job-holder.ts";
import { findNodeJob, findRunningNodeJob } from "./queue.ts";

/** …/api/node/jobs/:id/files/<path>: the path starts at the seventh segment. */
export const JOB_FILE_PATH_START = 6;

export function nodeOf(c: Context<AppEnv>): RenderNode {
  const node = c.get("node");
  if (!node) throw unauthorized(c.get("credential") ? "this endpoint takes a render-node key" : c.get("authProblem"));
  return node;
}

/** Node uploads are streamed into R2, which needs their length up front. */
export function declaredUpload(c: Context<AppEnv>): { body: ReadableStream<Uint8Array>; length: number } {
  const length = Number(c.req.header("Content-Length"));
  const body = c.req.raw.body;
  if (!body || !Number.isInteger(length) || length <= 0) throw new ApiError(411, "the upload needs a Content-Length");
  return { body, length };
}

/** The caller as a job's holder: its key and the attempt its call names (job-holder.ts). */
export function holderOf(c: Context<AppEnv>): JobHolder {
  return { nodeId: nodeOf(c).id, attempt: attemptOf(c.req.raw.headers) };
}

/** A job this node claimed (in the attempt it names), running or ended. */
export async function heldJob(c: Context<AppEnv>) {
  const holder = holderOf(c);
  const job = await findNodeJob(openDb(c.env.DB), c.req.param("id") ?? "", holder.nodeId);
  if (!job || !isHolder(job, holder)) throw notFound("no such job held by this node");
  return job;
}

/**
 * A job this node is working on now, for reads of a user's data (project files, segments): a node key reads only
 * what a job it currently holds needs. Ended, queued, lapsed-and-requeued (also when claimed again under the same
 * key by another process: an older attempt) and other nodes' jobs answer as missing.
 */
export async function runningJob(c: Context<AppEnv>) {
  const holder = holderOf(c);
  const job = await findRunningNodeJob(openDb(c.env.DB), c.req.param("id") ?? "", holder.nodeId);
  if (!job || !isHolder(job, holder)) throw notFound("no such job held by this node");
  return job;
}
