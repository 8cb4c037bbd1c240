// The batch tools' answer, the same from render_batch, get_batch and a batch task's result (tasks/result,
// task-store.ts): the batch's state, and one line per row with its file or error.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isInProgress, type BatchState } from "../../core/protocol/render-state.ts";
import { apiPath, type RestClient } from "./rest-client.ts";
import { toolResult } from "./tool-result.ts";

export type BatchOrNone = BatchState | { status: "none" };

export const batchPath = (slug: string) => apiPath("/api/projects", slug, "batch");

/** One line per row: its status, and its file or error. */
function batchText(rest: RestClient, slug: string, state: BatchOrNone): string {
  if (!("rows" in state)) return `Project ${slug} has run no batch.`;
  const counts = state.rows.filter((r) => r.status === "done").length;
  const head = `Batch ${state.id} of ${slug}: ${state.status}, ${counts}/${state.rows.length} rows done.`;
  const rows = state.rows.map((r) => `- row ${r.index}${r.name ? ` (${r.name})` : ""}: ${r.status}${r.downloadUrl ? ` ${rest.origin}${r.downloadUrl}` : ""}${r.error ? `: ${r.error}` : ""}`);
  const next = isInProgress(state.status) ? [`Call get_batch with slug "${slug}" to follow it.`] : [];
  return [head, ...rows, ...next].join("\n");
}

export function batchAnswer(rest: RestClient, slug: string, state: BatchOrNone): CallToolResult {
  return toolResult(rest.origin, batchText(rest, slug, state), state);
}
