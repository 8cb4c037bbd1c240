// Request bodies are parsed from `unknown` with zod; any problem is a 400 that names the field, never a 500.
// Every JSON route reads its body here, so the body limit and the content-type rule hold for all of them.
import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "./context.ts";
import { ApiError, badRequest } from "./errors.ts";
import { JSON_BODY, readBoundedText, type BodyLimit } from "./read-body.ts";
import { parseJson } from "../../core/parse-text.ts";

export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid request";
  const where = issue.path.length ? issue.path.join(".") : "body";
  return `invalid ${where}: ${issue.message}`;
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(describeZodError(result.error));
  return result.data;
}

/** True for `application/json`, with or without parameters such as `; charset=utf-8`. */
export function isJsonContentType(header: string | undefined): boolean {
  return (header ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";
}

export interface JsonBodyOptions {
  /** The route's declared body limit (default JSON_BODY, 1 MiB); a larger body is a 413 and is never read whole. */
  limit?: BodyLimit;
  /** The value the schema checks, from the parsed JSON (a render's body with the query's `wait` folded in). */
  given?: (json: unknown) => unknown;
}

/**
 * Reads a JSON body. An empty body counts as {} so optional-body endpoints accept a bare POST.
 * A browser's session-cookie request must say `Content-Type: application/json`: an HTML form can only send
 * urlencoded, multipart or text/plain, so this closes the form-post route to a JSON endpoint (the Origin rule in
 * csrf.ts is the first layer). Token callers keep the leniency agents rely on (`curl -d` sends urlencoded).
 */
export async function readJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S, options: JsonBodyOptions = {}): Promise<z.output<S>> {
  const limit = options.limit ?? JSON_BODY;
  const text = await readBoundedText(c.req.raw, limit.bytes(c.env), limit.hint);
  let value: unknown = {};
  if (text.trim() !== "") {
    const contentType = c.req.header("Content-Type");
    if (c.get("credential") === "session" && !isJsonContentType(contentType)) {
      throw new ApiError(415, `unsupported media type: send this JSON body with Content-Type: application/json (got ${contentType ?? "none"})`);
    }
    const json = parseJson(text);
    if (!json.ok) throw badRequest("invalid JSON body", "invalid_json");
    value = json.value;
  }
  return parseWith(schema, options.given ? options.given(value) : value);
}
