// What an endpoint's declaration says about it for the OpenAPI document: who may call, the request's parts and the
// answers. The declaration sits beside the handler in the domain's routes file (route.ts registers both); the
// schemas are thunks, built on first use (a request that validates with them, the document, an MCP tool's output).
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
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

/** The request's parts besides its path parameters (those come from the route's path, all strings). */
export interface RequestParts {
  query?: z.ZodType;
  /** A JSON body validated by this schema, or raw bytes of these media types. */
  body?: { json: z.ZodType; required?: boolean } | { raw: string[] };
  headers?: z.ZodObject;
}

/** One endpoint as the document describes it; its method and path are the ones it is registered under. */
export interface RouteDoc<R extends RequestParts = RequestParts> {
  operationId: string;
  summary: string;
  tag: string;
  access: Access;
  request?: () => R;
  responses: () => Record<number, Response>;
  /** Error statuses besides the ones every operation of its access level can answer (401, 400 for inputs). */
  errors?: number[];
  /** Answers X-D1-Bookmark and takes it back (worker/db/read-session.ts). */
  bookmark?: boolean;
}

/** { error, code }: every error of the API, plus fields some add (the idea board's 409 carries the idea). */
export const errorSchema = lazy(() =>
  z
    .object({
      error: z.string().describe("what went wrong, for people"),
      code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).describe("stable machine code; see the Error codes section of /api/docs"),
    })
    .meta({ id: "Error" }),
);

export const json = (schema: z.ZodType, description: string): Response => ({ description, body: { json: schema } });

/** A body of another media type, described as a string (binary for files and videos). */
export const media = (media: string, description: string, binary = false): Response => ({
  description,
  body: { media, schema: binary ? z.string().meta({ format: "binary" }) : z.string() },
});
