// An endpoint declared once: `route(doc, handler)` is the handler a domain's routes file registers with hono
// (`.get("/:slug", requireUser, route({...}, async (c, input) => ...))`), and the declaration the OpenAPI document
// is generated from (worker/openapi/document.ts walks the app's routes and finds each handler's declaration here).
// The method and path are hono's; the declaration holds the rest: who may call, the request's schemas (which the
// handler validates with, through `input`) and the answers. Schemas are thunks built on first use, so a route's
// declaration costs nothing at startup (see worker/openapi/README.md).
import type { Context, Handler } from "hono";
import type * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import type { RequestParts, Response, RouteDoc } from "../openapi/operation.ts";
import type { AppEnv } from "./context.ts";
import { readQuery } from "./query.ts";
import { readJson, type JsonBodyOptions } from "./validate.ts";

/** A declaration with its thunks built once. */
export interface DeclaredRoute {
  doc: RouteDoc;
  request: () => RequestParts;
  responses: () => Record<number, Response>;
}

type QueryOf<R> = R extends { query: infer Q extends z.ZodType } ? z.output<Q> : never;
type BodyOf<R> = R extends { body: { json: infer B extends z.ZodType } } ? z.output<B> : never;

/** The request read with the declared schemas: a 400 naming the field or parameter, as everywhere. */
export interface Input<R> {
  /** A path parameter of the route (hono's own typing of it is lost through the wrapper). */
  param(name: string): string;
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
  const registered: Handler<AppEnv> = (c) =>
    handler(c, {
      param: (name) => schemaOf(c.req.param(name), doc.operationId, `path parameter ${name}`),
      query: () => readQuery(c, schemaOf(request().query, doc.operationId, "query")) as QueryOf<R>,
      body: async (options) => (await readJson(c, schemaOf(jsonBody(request().body), doc.operationId, "JSON body"), options)) as BodyOf<R>,
    });
  declarations.set(registered, declared);
  return registered;
}

const jsonBody = (body: RequestParts["body"]) => (body && "json" in body ? body.json : undefined);

function schemaOf<S>(schema: S | undefined, operationId: string, what: string): S {
  if (!schema) throw new Error(`${operationId} declares no ${what}`);
  return schema;
}

/** The declaration of a registered handler, if it is one. */
export const declarationOf = (handler: unknown): DeclaredRoute | undefined => declarations.get(handler as Handler<AppEnv>);

/** The declaration with this operationId (the MCP tools name the REST route whose answer they return). */
export const declarationById = (operationId: string): DeclaredRoute | undefined => byOperationId.get(operationId);
