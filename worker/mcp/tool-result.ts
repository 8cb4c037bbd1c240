// Turns what a REST route answered into an MCP tool result. A 2xx JSON body becomes text (pretty JSON, which
// models read well) plus the same object as structured content; a REST error becomes an MCP tool error
// (`isError: true`) whose text and structured content are the REST error body (`error`, and `code` where the
// route gives one) with its HTTP status, so an agent sees the same message and code over MCP as over REST. Both
// leave out credential fields (`token`, `curl`): see redact-credentials.ts.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { withoutCredentialFields } from "./redact-credentials.ts";
import { RestError } from "./rest-client.ts";
import { logEvent } from "../http/log.ts";

export function jsonResult(body: unknown): CallToolResult {
  const value = withoutCredentialFields(body);
  const structured = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: structured };
}

export function errorResult(err: unknown): CallToolResult {
  if (err instanceof RestError) {
    const body = { ...(withoutCredentialFields(err.body) as Record<string, unknown>), status: err.status };
    return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: message }) }], structuredContent: { error: message } };
}

/** Runs a tool body; a thrown RestError (or anything else) becomes the tool error result. */
export async function asTool(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof RestError)) logEvent("error", "mcp.tool_failed", { error: err });
    return errorResult(err);
  }
}
