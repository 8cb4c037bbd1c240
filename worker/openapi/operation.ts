// One operation of the API as the OpenAPI document declares it. Each resource file lists its operations with the
// zod schemas the routes validate with (request) and the shapes they answer (responses); document.ts turns the
// lists into OpenAPI 3.1 and the tests parse real responses with the same response schemas.
import * as z from "zod";
import { ERROR_CODES, type ErrorCode } from "../http/errors.ts";

export type Method = "get" | "post" | "put" | "patch" | "delete";

/**
 * Who may call: `user` (personal token in any of its three forms, or the dashboard's session cookie), `writer`
 * (a user or an idea-board bot key), `optional` (anyone; a credential changes the answer), `public` (anyone),
 * `node` (a render node key).
 */
export type Access = "user" | "writer" | "optional" | "public" | "node";

/** A response body: JSON with a schema, or another media type (files, videos, text, pages, events). */
export type Body = { json: z.ZodType } | { media: string; schema?: z.ZodType };

export interface Response {
  description: string;
  body?: Body;
  headers?: Record<string, string>;
}

export interface Operation {
  method: Method;
  /** OpenAPI path syntax: /api/projects/{slug}. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodType;
  /** A JSON body validated by this schema, or raw bytes. */
  body?: { json: z.ZodType; required?: boolean } | { raw: string[] };
  headers?: z.ZodObject;
  responses: Record<number, Response>;
  /** Error statuses besides the ones every operation of its access level can answer (401, 405...). */
  errors?: number[];
}

/** { error, code }: every error of the API, plus fields some add (the idea board's 409 carries the idea). */
export const errorSchema = z
  .object({
    error: z.string().describe("what went wrong, for people"),
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).describe("stable machine code; see the Error codes section of /api/docs"),
  })
  .meta({ id: "Error" });

export const json = (schema: z.ZodType, description: string): Response => ({ description, body: { json: schema } });

/** Path parameters, all strings. */
export const pathParams = (...names: string[]) => z.object(Object.fromEntries(names.map((n) => [n, z.string()])));

/** The slug path parameter most project operations take. */
export const slugParam = pathParams("slug");
