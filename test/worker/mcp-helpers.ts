// JSON-RPC to /mcp through SELF, as an MCP client sends it over Streamable HTTP (the server is stateless: no
// initialize needed before a call). Answers come as an event stream; every message of it is parsed.
import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { BASE } from "./helpers.ts";

export interface ToolResult {
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface RpcMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

let rpcId = 0;

/** Sends one JSON-RPC request; the raw body, every message in it, and the answer to this request. */
export async function rpcMessage(token: string, method: string, params: unknown, headers: Record<string, string> = {}) {
  const id = ++rpcId;
  const res = await SELF.fetch(`${BASE}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  const raw = await res.text();
  expect(res.status, raw).toBe(200);
  // An event stream, or (for an answer the server gives without the SDK) one JSON message or batch.
  const messages = res.headers.get("Content-Type")?.startsWith("application/json")
    ? ([JSON.parse(raw)].flat() as RpcMessage[])
    : raw
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6)) as RpcMessage);
  return { raw, messages, answer: messages.find((m) => m.id === id), res };
}

/** One JSON-RPC request that must succeed: the raw body and its result. */
export async function rpc(token: string, method: string, params: unknown): Promise<{ raw: string; result: unknown }> {
  const { raw, answer } = await rpcMessage(token, method, params);
  expect(answer?.result, raw.slice(0, 500)).toBeDefined();
  return { raw, result: answer!.result };
}

export async function callTool(token: string, name: string, args: Record<string, unknown>) {
  const { raw, result } = await rpc(token, "tools/call", { name, arguments: args });
  return { raw, result: result as ToolResult };
}

export const textOf = (result: ToolResult) => result.content.map((c) => c.text ?? "").join("\n");
