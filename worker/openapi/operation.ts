// The pieces of an endpoint's declaration (worker/http/route.ts) that shape modules share: who may call, what an
// answer is, and the Error schema. Pure (zod and http/errors.ts): the dashboard's types reach this file through the
// shape modules, so it names nothing of the Worker's runtime (the declaration's own types live in route.ts).
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
