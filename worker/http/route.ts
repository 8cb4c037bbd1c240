// An endpoint declared once: `route(doc, handler)` is the handler a domain's routes file registers with hono
// (`.get("/:slug", requireUser, route({...}, async (c, input) => ...))`), and the declaration the OpenAPI document
// is generated from (worker/openapi/document.ts walks the app's routes and finds each handler's declaration here).
// The method and path are hono's; the declaration holds the rest: who may call, the request's schemas (path
// parameters, query, body: the handler reads them through `input`, validated and typed by them), whether it takes
// an Idempotency-Key, and the answers. Schemas are thunks built on first use, so a route's declaration costs nothing
// at startup (see worker/openapi/README.md).
import type { Context, Handler } from "hono";
import type * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import type { Access, Response } from "../openapi/operation.ts";
import type { AppEnv } from "./context.ts";
import { notFound } from "./errors.ts";
import { readQuery } from "./query.ts";
import { JSON_BODY, type BodyLimit } from "./read-body.ts";
import { readJson, type JsonBodyOptions } from "./validate.ts";

/** The request's parts: its path parameters (named by the route's path), query, body and headers. */
export interface RequestParts {
  /**
   * The path parameters the handler reads, by the names the path gives them. A value that fails its schema names
   * nothing: the answer is a 404 whose message is the schema's own (`z.string().regex(…, "no such idea")`).
   */
  params?: z.ZodObject;
  query?: z.ZodType;
  /**
   * A JSON body validated by this schema, read with this limit (default JSON_BODY, 1 MiB; the idempotency middleware
   * reads ahead with the same one), or raw bytes of these media types.
   */
  body?: { json: z.ZodType; required?: boolean; limit?: BodyLimit } | { raw: string[] };
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
  /**
   * Takes an Idempotency-Key (worker/http/idempotency.ts): a retry with the same key gets the first answer again.
   * Declared on the POSTs that create; the document lists the header on these and only these.
   */
  idempotent?: boolean;
}

/** A declaration with its thunks built once. */
export interface DeclaredRoute {
  doc: RouteDoc;
  request: () => RequestParts;
  responses: () => Record<number, Response>;
}

type ParamsOf<R> = R extends { params: infer P extends z.ZodObject } ? z.output<P> : Record<never, never>;
type QueryOf<R> = R extends { query: infer Q extends z.ZodType } ? z.output<Q> : never;
type BodyOf<R> = R extends { body: { json: infer B extends z.ZodType } } ? z.output<B> : never;

/**
 * The request read with the declared schemas. Path parameters are checked before the handler runs (one that fails
 * its schema is a 404 with the schema's message); the query and the body when read (a 400 naming the field or
 * parameter, as everywhere; the body with the declared limit).
 */
export interface Input<R> {
  /** A declared path parameter, as its schema gives it (an idea's id is a number). */
  param<K extends keyof ParamsOf<R> & string>(name: K): ParamsOf<R>[K];
  query(): QueryOf<R>;
  body(options?: JsonBodyOptions): Promise<BodyOf<R>>;
}

const declarations = new WeakMap<Handler<AppEnv>, DeclaredRoute>();
const byOperationId = new Map<string, DeclaredRoute>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RouteContext = Context<AppEnv, any>;

export function route<R extends RequestParts = RequestParts>(
  doc: RouteDoc<R>,
  handler: (c: RouteContext, input: Input<R>) => globalThis.Response | Promise<globalThis.Response | undefined>,
): Handler<AppEnv> {
  const request = lazy(() => doc.request?.() ?? ({} as R));
  const declared: DeclaredRoute = { doc: doc as RouteDoc, request, responses: lazy(doc.responses) };
  // Declared at module load, once per isolate; a repeated id would be a second path of one operation, which the
  // document's test refuses (every operationId unique).
  byOperationId.set(doc.operationId, declared);
  const registered: Handler<AppEnv> = (c) => {
    const params = readParams(c, request().params);
    return handler(c, {
      param: (name) => {
        if (!(name in params)) throw new Error(`${doc.operationId} declares no path parameter ${name}`);
        return params[name as keyof typeof params] as ParamsOf<R>[typeof name];
      },
      query: () => readQuery(c, schemaOf(request().query, doc.operationId, "query")) as QueryOf<R>,
      body: async (options) =>
        (await readJson(c, schemaOf(jsonBody(request().body), doc.operationId, "JSON body"), { limit: bodyLimitOf(declared), ...options })) as BodyOf<R>,
    });
  };
  declarations.set(registered, declared);
  return registered;
}

/** The declared path parameters, parsed; a value its schema refuses names nothing (404, the schema's message). */
function readParams(c: RouteContext, schema: z.ZodObject | undefined): Record<string, unknown> {
  if (!schema) return {};
  const parsed = schema.safeParse(c.req.param());
  if (!parsed.success) throw notFound(parsed.error.issues[0]?.message ?? "not found");
  return parsed.data;
}

const jsonBody = (body: RequestParts["body"]) => (body && "json" in body ? body.json : undefined);

/** The limit a route's JSON body is read with, by its handler and by anything reading ahead of it (idempotency). */
export function bodyLimitOf(route: DeclaredRoute): BodyLimit {
  const body = route.request().body;
  return (body && "json" in body ? body.limit : undefined) ?? JSON_BODY;
}

function schemaOf<S>(schema: S | undefined, operationId: string, what: string): S {
  if (!schema) throw new Error(`${operationId} declares no ${what}`);
  return schema;
}

/** The declaration of a registered handler, if it is one. */
export const declarationOf = (handler: unknown): DeclaredRoute | undefined => declarations.get(handler as Handler<AppEnv>);

/** The declaration with this operationId (the MCP tools name the REST route whose answer they return). */
export const declarationById = (operationId: string): DeclaredRoute | undefined => byOperationId.get(operationId);
