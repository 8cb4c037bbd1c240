// GET /api/docs (text reference; examples carry the caller's token), GET /api/openapi.json and GET /api/reference.
import { Hono, type Context } from "hono";
import { personalToken } from "../auth/users.ts";
import { openDb } from "../db/client.ts";
import { tokenSecret } from "../http/config.ts";
import { renderDocs } from "./render-docs.ts";
import { referencePage } from "./reference-page.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { maxFileBytes } from "../http/config.ts";
import { contentOrigin } from "../http/origins.ts";
import type { AppEnv } from "../http/context.ts";
import { VERSION } from "../ops/health-routes.ts";
import { loadLinter } from "../checks/load-linter.ts";

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

export const docsRoutes = new Hono<AppEnv>()
  .get("/docs", async (c) =>
    c.text(renderDocs({ baseUrl: baseUrlOf(c), contentUrl: contentOrigin(c.env), token: await callerToken(c), maxFileBytes: maxFileBytes(c.env) }, await loadLinter()), 200, {
      "Content-Type": "text/plain; charset=utf-8",
      // The text may carry the caller's token: never stored by a shared cache.
      "Cache-Control": "private, no-store",
    }),
  )
  // The OpenAPI document's declarations and generator are loaded on the first request for it, not at startup.
  .get("/openapi.json", async (c) => {
    const { openApiDocument } = await import("../openapi/document.ts");
    return c.json(openApiDocument(baseUrlOf(c), VERSION));
  })
  .get("/reference", referencePage);
