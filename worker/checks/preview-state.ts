// The `preview` field of project summaries and the body of GET .../preview, derived from the project's live
// preview job: running only while a node holds it (lease current) and has reported its port.
//
// A preview server answers only under its secret, `http://<host>:<port>/<secret>/`: the Worker draws the secret
// when it queues the job (job options, seen by the node that claims it), and the URL handed to the owner carries
// it. The host is the configured content origin's, never the request's Host header.
import { randomSecret } from "../auth/tokens.ts";
import type { Env } from "../env.ts";
import { contentOrigin } from "../http/origins.ts";
import type { JobRow } from "../renders/farm/queue.ts";
import type { PreviewState } from "../projects/summary.ts";
import { parseJson } from "../../core/parse-text.ts";

/** The options of a new preview job: its secret, 32 random bytes in base64url. */
export function newPreviewOptions(): { secret: string } {
  return { secret: randomSecret() };
}

/** The host name preview URLs use: the content origin's (CONTENT_URL). */
export function previewHostname(env: Env): string {
  return new URL(contentOrigin(env)).hostname;
}

/** The job's secret; null for a job queued without one (it cannot be reached, so a new POST replaces it). */
export function previewSecret(job: JobRow): string | null {
  const options = parseJson(job.options);
  if (!options.ok) return null; // options the Worker did not write hold no secret: the preview is unreachable, replaced
  const secret = (options.value as { secret?: unknown } | null)?.secret;
  return typeof secret === "string" && /^[A-Za-z0-9_-]{16,}$/.test(secret) ? secret : null;
}

export function previewPort(job: JobRow | null, now = Date.now()): number | null {
  if (!job || job.status !== "running" || (job.leaseExpiresAt ?? 0) < now || !job.result) return null;
  const result = parseJson(job.result);
  if (!result.ok) return null; // a node's result that is not JSON names no port: the preview is not up
  const port = (result.value as { port?: unknown } | null)?.port;
  return typeof port === "number" && Number.isInteger(port) ? port : null;
}

/** `{ running, port, url }` with the secret in `url`'s path; `hostname` from previewHostname(env). */
export function previewState(job: JobRow | null, hostname: string, now = Date.now()): PreviewState {
  const port = previewPort(job, now);
  const secret = job && previewSecret(job);
  if (port === null || !secret) return { running: false };
  const host = hostname.includes(":") && !hostname.startsWith("[") ? `[${hostname}]` : hostname;
  return { running: true, port, url: `http://${host}:${port}/${secret}/` };
}

/** A preview job that lost its node (lease lapsed) no longer counts, and a new POST replaces it. */
export function isStalePreview(job: JobRow, now = Date.now()): boolean {
  return job.status === "running" && (job.leaseExpiresAt ?? 0) < now;
}
