// GET /api/docs (text reference; examples carry the caller's token), GET /api/openapi.json and GET /api/reference.
import { Hono, type Context } from "hono";
import * as z from "zod";
import { personalToken } from "../auth/users.ts";
import { openDb } from "../db/client.ts";
import { tokenSecret } from "../http/config.ts";
import { loadDocTexts } from "./doc-text.ts";
import { renderDocs } from "./render-docs.ts";
import { referencePage } from "./reference-page.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { maxFileBytes } from "../http/config.ts";
import { contentOrigin } from "../http/origins.ts";
import type { AppEnv } from "../http/context.ts";
import { VERSION } from "../ops/health-routes.ts";
import { loadLinter } from "../checks/load-linter.ts";
import { route } from "../http/route.ts";
import { json, media } from "../openapi/operation.ts";

/**
 * The token the examples carry: the one the caller sent, or for a person signed in on the dashboard (cookie) their
 * personal token, which GET /api/me already shows them. Bots, nodes and visitors get the <TOKEN> placeholder.
 */
async function callerToken(c: Context<AppEnv>): Promise<string | null> {
  const sent = c.get("token");
  if (sent) return sent;
  const user = c.get("user");
  if (!user || c.get("credential") !== "session") return null;
  return personalToken(openDb(c.env.DB), tokenSecret(c.env), user.id);
}

const textDocs = route(
  { operationId: "getDocs", summary: "The API reference as text (examples carry the caller's token)", tag: "studio", access: "optional", responses: () => ({ 200: media("text/plain", "the reference") }) },
  async (c) =>
    c.text(renderDocs({ baseUrl: baseUrlOf(c), contentUrl: contentOrigin(c.env), token: await callerToken(c), maxFileBytes: maxFileBytes(c.env) }, await loadLinter(), await loadDocTexts(c.env)), 200, {
      "Content-Type": "text/plain; charset=utf-8",
      // The text may carry the caller's token: never stored by a shared cache.
      "Cache-Control": "private, no-store",
    }),
);

const reference = route(
  {
    operationId: "getReference", summary: "Interactive API reference (Swagger UI, served from the studio itself) for this document", tag: "studio", access: "public",
    responses: () => ({ 200: media("text/html", "an HTML page") }),
  },
  referencePage,
);

/** The docs routes of `api`, whose own routes the OpenAPI document describes. */
export function docsRoutes(api: Hono<AppEnv>) {
  return (
    new Hono<AppEnv>()
      .get("/docs", textDocs)
      // The document's generator is loaded, and the document built, on the first request for it, not at startup.
      .get(
        "/openapi.json",
        route(
          { operationId: "getOpenApi", summary: "This OpenAPI 3.1 document", tag: "studio", access: "public", responses: () => ({ 200: json(z.object({ openapi: z.string() }).loose(), "the document") }) },
          async (c) => {
            const { openApiDocument } = await import("../openapi/document.ts");
            return c.json(openApiDocument(api, baseUrlOf(c), VERSION));
          },
        ),
      )
      .get("/reference", reference)
  );
}
