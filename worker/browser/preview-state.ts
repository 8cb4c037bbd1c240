// The `preview` field of project summaries and the body of GET .../preview, derived from the project's live
// preview job: running only while a node holds it (lease current) and has reported its port.
import type { JobRow } from "../jobs/queue.ts";
import type { PreviewState } from "../projects/summary.ts";

export function previewPort(job: JobRow | null, now = Date.now()): number | null {
  if (!job || job.status !== "running" || (job.leaseExpiresAt ?? 0) < now || !job.result) return null;
  try {
    const port = (JSON.parse(job.result) as { port?: unknown }).port;
    return typeof port === "number" && Number.isInteger(port) ? port : null;
  } catch {
    return null;
  }
}

/** `url` uses the host name the caller used: the preview listens on the studio host, on its own port. */
export function previewState(job: JobRow | null, hostname: string, now = Date.now()): PreviewState {
  const port = previewPort(job, now);
  if (port === null) return { running: false };
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return { running: true, port, url: `http://${host}:${port}/` };
}

/** A preview job that lost its node (lease lapsed) no longer counts, and a new POST replaces it. */
export function isStalePreview(job: JobRow, now = Date.now()): boolean {
  return job.status === "running" && (job.leaseExpiresAt ?? 0) < now;
}
