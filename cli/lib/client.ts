// The studio's HTTP API for the CLI: JSON calls with the token, errors as StudioError with the API's message.
import type * as z from "zod";
import { parseJson } from "../../core/parse-text.ts";

export class StudioError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    super(typeof body.error === "string" ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

export interface Client {
  url: string;
  token: string;
  request(method: string, path: string, body?: BodyInit | object, headers?: Record<string, string>): Promise<Response>;
  /** A JSON answer read with the contract's schema: an answer that does not fit is an error, never a guess. */
  read<T>(schema: z.ZodType<T>, method: string, path: string, body?: object): Promise<T>;
}

/** What the server answered does not fit what this CLI knows of the API (an older or newer server). */
export function unreadable(what: string, error: z.ZodError): Error {
  return new Error(`the studio answered ${what} in a shape this CLI does not know (${error.issues[0]?.message ?? "unknown"} at ${error.issues[0]?.path.join(".") || "top level"}); update the CLI or the studio`);
}

export function createClient(url: string, token: string): Client {
  async function request(method: string, path: string, body?: BodyInit | object, headers: Record<string, string> = {}) {
    const isJson = body !== undefined && !(body instanceof Uint8Array) && typeof body !== "string" && !(body instanceof ReadableStream);
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(isJson ? { "Content-Type": "application/json" } : {}), ...headers },
      body: isJson ? JSON.stringify(body) : (body as BodyInit | undefined),
    });
    if (!res.ok) {
      // The API's { error, code }; anything else (a proxy's page, an empty answer) is shown as the error itself.
      const text = await res.text();
      const json = parseJson(text);
      const isObject = json.ok && typeof json.value === "object" && json.value !== null && !Array.isArray(json.value);
      throw new StudioError(res.status, isObject ? (json.value as Record<string, unknown>) : { error: text || `HTTP ${res.status}` });
    }
    return res;
  }
  return {
    url,
    token,
    request,
    async read<T>(schema: z.ZodType<T>, method: string, path: string, body?: object) {
      const parsed = schema.safeParse(await (await request(method, path, body)).json());
      if (!parsed.success) throw unreadable(`${method} ${path}`, parsed.error);
      return parsed.data;
    },
  };
}

/** Each segment percent-encoded, slashes kept. */
export const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");
