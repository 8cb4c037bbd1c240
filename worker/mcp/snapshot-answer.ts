// What the snapshot tool answers, for a plain call (POST …/snapshot, which waits) and for a snapshot task's
// tasks/result (GET …/snapshot/{id} once it ended) alike: the frames as images, a line of text, and the REST answer
// as structured content. A snapshot that failed or was cancelled is the tool error a plain call gets.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { SnapshotJob } from "../checks/shapes.ts";
import { base64Of } from "./file-content.ts";
import { apiPath, RestError, type RestClient } from "./rest-client.ts";
import { errorResult, toolResult } from "./tool-result.ts";

type Shot = { path: string; size: number; url: string };

export const snapshotPathOf = (slug: string) => apiPath("/api/projects", slug, "snapshot");

/** The path part of a snapshot's URL, only if it is one of this project's files (snapshots/…); else null. */
function snapshotPath(slug: string, url: string): { path: string; query: Record<string, string> } | null {
  const parsed = new URL(url, "http://studio.invalid");
  if (!parsed.pathname.startsWith(`${apiPath("/api/projects", slug, "files")}/`)) return null;
  return { path: parsed.pathname, query: Object.fromEntries(parsed.searchParams) };
}

/** The frames of a done snapshot as images, after a line naming them. */
export async function snapshotAnswer(rest: RestClient, slug: string, answer: { ok: boolean; snapshots: Shot[]; log: string[] }): Promise<CallToolResult> {
  const images = await Promise.all(
    answer.snapshots.map(async (shot) => {
      const call = snapshotPath(slug, shot.url);
      if (!call) throw new Error(`snapshot URL outside the project's files: ${shot.url}`);
      const bytes = new Uint8Array(await (await rest.fetch(call)).arrayBuffer());
      return { type: "image" as const, data: base64Of(bytes), mimeType: "image/png" };
    }),
  );
  const summary = { ok: answer.ok, snapshots: answer.snapshots, log: answer.log };
  const text = `${answer.snapshots.length} snapshots of ${slug} (${answer.snapshots.map((s) => s.path).join(", ")}), as images below.`;
  const result = toolResult(rest.origin, text, summary);
  return { ...result, content: [...result.content, ...images] };
}

/** An ended snapshot job's answer: its frames, or the 422 a waiting call answers for one that did not finish. */
export async function snapshotJobAnswer(rest: RestClient, slug: string, job: SnapshotJob): Promise<CallToolResult> {
  if (job.status === "done") return snapshotAnswer(rest, slug, { ok: true, snapshots: job.snapshots, log: job.log });
  return errorResult(new RestError(422, { error: `snapshot failed: ${job.error ?? job.status}`, code: "unprocessable", ok: false, snapshots: [], log: job.log }));
}
