// Request bodies are parsed from `unknown` with zod; any problem is a 400 that names the field, never a 500.
import type { Context } from "hono";
import type { z } from "zod";
import { badRequest } from "./errors.ts";

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

/** Reads a JSON body. An empty body counts as {} so optional-body endpoints accept a bare POST. */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest("invalid JSON body");
    }
  }
  return parseWith(schema, value);
}
