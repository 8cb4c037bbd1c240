// The output schemas of the MCP tools. A tool's structured content is the body of the REST route it calls (the
// same fields the REST docs describe), with its relative links made absolute and, where it helps a model act next,
// a `links` object. So each tool declares the response schema the OpenAPI document declares for that route
// (declared beside the route, worker/http/route.ts; tested against real responses), never a second copy of it.
//
// Loosened at every depth: the SDK writes an object schema as `additionalProperties: false`, and a client that
// validates structured content (the SDK's own client does) would then refuse an answer the day the API adds a
// field ("ignore fields you do not know", the docs say). Loose objects name what a client can rely on and allow more.
import * as z from "zod";
import { declarationById } from "../http/route.ts";

type Def = { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType; options?: z.ZodType[] };

/** `schema` with every object in it loose (unknown keys allowed), keeping descriptions. */
export function loose(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  let out: z.ZodType;
  if (def.type === "object") out = z.looseObject(Object.fromEntries(Object.entries(def.shape!).map(([key, inner]) => [key, loose(inner)])));
  else if (def.type === "array") out = z.array(loose(def.element!));
  else if (def.type === "optional") out = loose(def.innerType!).optional();
  else if (def.type === "nullable") out = loose(def.innerType!).nullable();
  else if (def.type === "union") out = z.union(def.options!.map(loose) as [z.ZodType, z.ZodType]);
  else return schema;
  return schema.description ? out.describe(schema.description) : out;
}

const outputs = new Map<string, z.ZodObject>();

/**
 * The loosened JSON response schema the OpenAPI document declares for `operationId` at `status`. Built once per
 * isolate: the server is made anew for every /mcp request (stateless), its schemas need not be.
 */
export function restOutput(operationId: string, status = 200): z.ZodObject {
  const key = `${operationId} ${status}`;
  const cached = outputs.get(key);
  if (cached) return cached;
  const body = declarationById(operationId)?.responses()[status]?.body;
  if (!body || !("json" in body)) throw new Error(`no JSON ${status} response declared for ${operationId}`);
  const schema = loose(body.json);
  if (!(schema instanceof z.ZodObject)) throw new Error(`the ${status} response of ${operationId} is not an object`);
  outputs.set(key, schema);
  return schema;
}

/** The JSON body schema the REST route `operationId` validates with: a tool taking the same fields declares them. */
export function restBody(operationId: string): z.ZodObject {
  const body = declarationById(operationId)?.request().body;
  const schema = body && "json" in body ? body.json : undefined;
  if (!(schema instanceof z.ZodObject)) throw new Error(`no JSON object body declared for ${operationId}`);
  return schema;
}

const url = (description: string) => z.string().describe(description);

/** Absolute links to a project's REST resources. */
export const projectLinks = z
  .object({
    project: url("GET: the project (summary, meta, files, a one-hour contentUrl to view it)"),
    files: url("GET: its files; GET/PUT/DELETE <files>/<path> for one"),
    render: url("POST: start a render; GET: its current or last render"),
  })
  .describe("absolute REST URLs (send your token)");

/** Absolute links to one render. */
export const renderLinks = z
  .object({
    render: url("GET: this render's state by id (GET /api/renders/{id})"),
    project: url("GET: the project's current render, with its log"),
    download: url("GET: the video file (with your token)").optional(),
    poster: url("GET: the video's poster image, image/jpeg (with your token)").optional(),
    live: url("GET: while the render runs, an HLS playlist of its finished segments so far (with your token)").optional(),
  })
  .describe("absolute REST URLs (send your token)");
