// GET /llms.txt and GET /skill.md: public, generated per request from the same sources as GET /api/docs.
import { Hono } from "hono";
import { buildLlmsTxt, buildSkill } from "./skill.ts";
import { loadDocTexts } from "./doc-text.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { maxFileBytes } from "../http/config.ts";
import { contentOrigin } from "../http/origins.ts";
import { loadLinter } from "../checks/load-linter.ts";
import type { AppEnv } from "../http/context.ts";
import { route } from "../http/route.ts";
import { media } from "../openapi/operation.ts";

export const agentDocsRoutes = new Hono<AppEnv>()
  .get(
    "/llms.txt",
    route(
      { operationId: "llmsTxt", summary: "The index for language models (llms.txt)", tag: "agents", access: "public", responses: () => ({ 200: media("text/plain", "text") }) },
      async (c) => c.text(buildLlmsTxt(baseUrlOf(c), await loadDocTexts(c.env)), 200, { "Content-Type": "text/plain; charset=utf-8" }),
    ),
  )
  .get(
    "/skill.md",
    route(
      { operationId: "agentSkill", summary: "The agent skill: the whole loop, composition rules, worked examples", tag: "agents", access: "public", responses: () => ({ 200: media("text/markdown", "Markdown") }) },
      async (c) =>
        c.body(buildSkill({ baseUrl: baseUrlOf(c), contentUrl: contentOrigin(c.env), maxFileBytes: maxFileBytes(c.env) }, await loadLinter(), await loadDocTexts(c.env)), 200, {
          "Content-Type": "text/markdown; charset=utf-8",
          "Content-Disposition": 'inline; filename="SKILL.md"',
        }),
    ),
  );
