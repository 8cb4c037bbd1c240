// The batch tools: `render_batch` starts one render per row of variables (POST .../batch) and answers at once with
// the batch's state (a batch takes as long as its rows together: follow it with get_batch), `get_batch` reads it,
// `cancel_batch` stops it.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { BATCH_LIMITS, batchRequestSchema } from "../../core/render/batch-request.ts";
import type { BatchState } from "../../core/protocol/render-state.ts";
import { isInProgress } from "../../core/protocol/render-state.ts";
import { restOutput } from "./output-schema.ts";
import { slugInput } from "./project-tools.ts";
import { apiPath, type RestClient } from "./rest-client.ts";
import { asTool, toolResult } from "./tool-result.ts";

type BatchOrNone = BatchState | { status: "none" };

const batchPath = (slug: string) => apiPath("/api/projects", slug, "batch");

/** One line per row: its status, and its file or error. */
function batchText(rest: RestClient, slug: string, state: BatchOrNone): string {
  if (!("rows" in state)) return `Project ${slug} has run no batch.`;
  const counts = state.rows.filter((r) => r.status === "done").length;
  const head = `Batch ${state.id} of ${slug}: ${state.status}, ${counts}/${state.rows.length} rows done.`;
  const rows = state.rows.map((r) => `- row ${r.index}${r.name ? ` (${r.name})` : ""}: ${r.status}${r.downloadUrl ? ` ${rest.origin}${r.downloadUrl}` : ""}${r.error ? `: ${r.error}` : ""}`);
  const next = isInProgress(state.status) ? [`Call get_batch with slug "${slug}" to follow it.`] : [];
  return [head, ...rows, ...next].join("\n");
}

const getBatchOutput = restOutput("startBatch", 202).partial().extend({ status: z.enum(["none", "queued", "rendering", "done", "failed", "cancelled"]) });

export function registerBatchTools(server: McpServer, rest: RestClient): void {
  server.registerTool(
    "render_batch",
    {
      description:
        `Render one video per row of variables (1 to ${BATCH_LIMITS.rows} rows), one after another, each a render with the ` +
        "row's variables over the composition's data-composition-variables defaults, and a file named <slug>-<row name or index>_<time>. " +
        "Answers at once with each row's status; follow with get_batch (each done row has its download link). A failed row does not " +
        "stop the others; the batch ends done only when every row is done. No other render starts in the project meanwhile.",
      inputSchema: { slug: slugInput, ...batchRequestSchema().shape },
      outputSchema: restOutput("startBatch", 202),
    },
    ({ slug, ...body }) =>
      asTool(async () => {
        const state = await rest.json<BatchState>({ method: "POST", path: batchPath(slug), json: body });
        return toolResult(rest.origin, batchText(rest, slug, state), state);
      }),
  );
  server.registerTool(
    "get_batch",
    {
      description: 'A project\'s current or last batch: its status and each row\'s status, file (links when done) and error; { status: "none" } when it never ran one.',
      inputSchema: { slug: slugInput },
      outputSchema: getBatchOutput,
    },
    ({ slug }) =>
      asTool(async () => {
        const state = await rest.json<BatchOrNone>({ path: batchPath(slug) });
        return toolResult(rest.origin, batchText(rest, slug, state), state);
      }),
  );
  server.registerTool(
    "cancel_batch",
    { description: "Stop a project's batch in progress: the running row's render is cancelled and the rows not started are cancelled.", inputSchema: { slug: slugInput }, outputSchema: restOutput("cancelBatch") },
    ({ slug }) =>
      asTool(async () => {
        const answer = await rest.json<{ stopped: boolean; batch: BatchState | null }>({ method: "DELETE", path: batchPath(slug) });
        return toolResult(rest.origin, answer.stopped ? `Cancelled the batch of ${slug}.` : `No batch of ${slug} was running.`, answer);
      }),
  );
}
