// GET /llms.txt and GET /skill.md: public, generated per request from the same sources as GET /api/docs.
import { Hono } from "hono";
import { buildLlmsTxt, buildSkill } from "./skill.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { maxFileBytes } from "../http/config.ts";
import { contentOrigin } from "../http/origins.ts";
import { loadLinter } from "../checks/load-linter.ts";
import type { AppEnv } from "../http/context.ts";

export const agentDocsRoutes = new Hono<AppEnv>()
  .get("/llms.txt", (c) => c.text(buildLlmsTxt(baseUrlOf(c)), 200, { "Content-Type": "text/plain; charset=utf-8" }))
  .get("/skill.md", async (c) =>
    c.body(buildSkill({ baseUrl: baseUrlOf(c), contentUrl: contentOrigin(c.env), maxFileBytes: maxFileBytes(c.env) }, await loadLinter()), 200, {
      "Content-Type": "text/markdown; charset=utf-8",
      "Content-Disposition": 'inline; filename="SKILL.md"',
    }),
  );
