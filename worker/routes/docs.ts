// GET /api/docs (text reference; examples carry the caller's token), GET /api/openapi.json and GET /api/reference.
import { Hono } from "hono";
import { openApiDocument } from "../openapi/document.ts";
import { renderDocs } from "../docs/render-docs.ts";
import { referencePage } from "../docs/reference-page.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { maxFileBytes } from "../http/config.ts";
import { contentOrigin } from "../http/origins.ts";
import type { AppEnv } from "../http/context.ts";
import { VERSION } from "./health.ts";

export const docsRoutes = new Hono<AppEnv>()
  .get("/docs", (c) =>
    c.text(renderDocs({ baseUrl: baseUrlOf(c), contentUrl: contentOrigin(c.env), token: c.get("token"), maxFileBytes: maxFileBytes(c.env) }), 200, {
      "Content-Type": "text/plain; charset=utf-8",
    }),
  )
  .get("/openapi.json", (c) => c.json(openApiDocument(baseUrlOf(c), VERSION)))
  .get("/reference", referencePage);
