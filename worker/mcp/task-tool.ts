// A tool that runs as an MCP task when asked to (2025-11-25 tasks: `task` in the call's params) and answers plainly
// otherwise. Which of the two is registered depends on the request (task-calls.ts): the plain tool for a plain
// call, the task tool (taskSupport "optional") for anything else, so tools/list always shows the task support.
// A task-augmented call runs `start` (which starts the render or batch and answers its task, task-status.ts) and
// answers the task at once; tasks/get, tasks/result and tasks/cancel then go to the task store (task-store.ts).
import type { McpServer, ToolCallback } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ZodRawShapeCompat, ShapeOutput, AnySchema } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { CallToolResult, Task } from "@modelcontextprotocol/sdk/types.js";
import { RestError } from "./rest-client.ts";
import { refusedTask } from "./task-status.ts";
import type { TaskRequestHandlerExtra, ToolTaskHandler } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";

/**
 * The started task, or (when the REST API refused the call) a failed one that carries the refusal: the SDK can
 * answer a task-augmented call only with a task, and would turn a tool error into a message that names none.
 */
async function startOrRefuse(start: () => Promise<Task>): Promise<Task> {
  try {
    return await start();
  } catch (err) {
    if (err instanceof RestError) return refusedTask({ status: err.status, body: err.body, at: Date.now() });
    throw err;
  }
}

export interface TaskToolConfig<Args extends ZodRawShapeCompat> {
  description: string;
  inputSchema: Args;
  outputSchema: AnySchema;
  _meta?: Record<string, unknown>;
}

export function registerTaskTool<Args extends ZodRawShapeCompat>(
  server: McpServer,
  name: string,
  asTask: boolean,
  config: TaskToolConfig<Args>,
  plain: ToolCallback<Args>,
  start: (args: ShapeOutput<Args>) => Promise<Task>,
): void {
  if (!asTask) {
    server.registerTool(name, config, plain);
    return;
  }
  // Typed by hand: the SDK's handler types are conditional on the schema, which TypeScript cannot settle for a
  // generic one.
  const handler = {
    createTask: async (args: ShapeOutput<Args>) => ({ task: await startOrRefuse(() => start(args)) }),
    // The SDK answers tasks/get and tasks/result from the task store; these are its per-tool hooks, kept equal.
    getTask: async (_args: unknown, extra: TaskRequestHandlerExtra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args: unknown, extra: TaskRequestHandlerExtra) => (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
  } as unknown as ToolTaskHandler<Args>;
  server.experimental.tasks.registerToolTask(name, { ...config, execution: { taskSupport: "optional" } }, handler);
}
