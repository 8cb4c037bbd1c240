// The batch tools: `render_batch` starts one render per row of variables (POST .../batch) and answers at once with
// the batch's state (a batch takes as long as its rows together: follow it with get_batch), `get_batch` reads it,
// `cancel_batch` stops it.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { BATCH_LIMITS, batchRequestSchema } from "../../core/render/batch-request.ts";
import type { BatchState } from "../../core/protocol/render-state.ts";
import { restOutput } from "./output-schema.ts";
import { slugInput } from "./project-tools.ts";
import type { RestClient } from "./rest-client.ts";
import { asTool, toolResult } from "./tool-result.ts";
import { batchAnswer, batchPath, type BatchOrNone } from "./batch-answer.ts";
import { registerTaskTool } from "./task-tool.ts";
import { batchTask } from "./task-status.ts";

const getBatchOutput = restOutput("startBatch", 202).partial().extend({ status: z.enum(["none", "queued", "rendering", "done", "failed", "cancelled"]) });

/** The batch body without dryRun: this tool starts batches (its answers are batch states); the quote is the render tool's. */
const batchShape = () => {
  const { dryRun: _dryRun, ...shape } = batchRequestSchema().shape;
  return shape;
};

export function registerBatchTools(server: McpServer, rest: RestClient, asTask: (tool: string) => boolean): void {
  registerTaskTool(
    server,
    "render_batch",
    asTask("render_batch"),
    {
      description:
        `Render one video per row of variables (1 to ${BATCH_LIMITS.rows} rows), one after another, each a render with the ` +
        "row's variables over the composition's data-composition-variables defaults, and a file named <slug>-<row name or index>_<time>. " +
        "Answers at once with each row's status; follow with get_batch (each done row has its download link). A failed row does not " +
        "stop the others; the batch ends done only when every row is done. No other render starts in the project meanwhile. " +
        "As an MCP task (task: { ttl }), tasks/get follows the rows and tasks/result gives the batch once it ends. " +
        "To know what it costs first: render with dryRun quotes one row; POST …/batch with dryRun (REST) quotes the whole batch.",
      inputSchema: { slug: slugInput, ...batchShape() },
      outputSchema: restOutput("startBatch", 202),
    },
    ({ slug, ...body }) =>
      asTool(async () => {
        const state = await rest.json<BatchState>({ method: "POST", path: batchPath(slug), json: body });
        return batchAnswer(rest, slug, state);
      }),
    async ({ slug, ...body }) => batchTask(await rest.json<BatchState>({ method: "POST", path: batchPath(slug), json: body }), Date.now()),
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
        return batchAnswer(rest, slug, state);
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
