// Turns what a REST route answered into an MCP tool result: `structuredContent` is the route's JSON body (the shape
// the tool's outputSchema declares; output-schema.ts) with its links made absolute, so it stands on its own, and
// the text is a short sentence for people and models that read text only (never the whole JSON again). A REST
// error becomes an MCP tool error (`isError: true`) whose text is the REST error body (`error`, and `code` where the
// route gives one) with its HTTP status as JSON, so an agent sees the same message and code over MCP as over REST.
// An error carries no structuredContent: that must match the tool's outputSchema, and the SDK's client refuses a
// result whose structured content does not, error or not. Both leave out credential fields (`token`, `curl`): see
// redact-credentials.ts.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { withoutCredentialFields } from "./redact-credentials.ts";
import { RestError } from "./rest-client.ts";
import { logEvent } from "../http/log.ts";

/** A link field of a REST body ("url", "downloadUrl", "contentUrl", ...). */
const isLinkKey = (key: string) => key === "url" || key.endsWith("Url");

/** `value` with every root-relative link ("/renders/x.mp4") made absolute on `origin`, at any depth. */
export function absoluteLinks(value: unknown, origin: string): unknown {
  if (Array.isArray(value)) return value.map((inner) => absoluteLinks(inner, origin));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        isLinkKey(key) && typeof inner === "string" && inner.startsWith("/") && !inner.startsWith("//") ? origin + inner : absoluteLinks(inner, origin),
      ]),
    );
  }
  return value;
}

/** A tool's answer: `text` for reading, `body` (a REST answer, plus links) as structured content. */
export function toolResult(origin: string, text: string, body: Record<string, unknown>): CallToolResult {
  const structured = absoluteLinks(withoutCredentialFields(body), origin) as Record<string, unknown>;
  return { content: [{ type: "text", text }], structuredContent: structured };
}

export function errorResult(err: unknown): CallToolResult {
  if (err instanceof RestError) {
    const body = { ...(withoutCredentialFields(err.body) as Record<string, unknown>), status: err.status };
    return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: message }) }] };
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
