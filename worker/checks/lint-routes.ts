// POST /api/projects/:slug/lint → { ok, exitCode, result } with result shaped like HyperFrames' `lint --json`.
import { Hono } from "hono";
import * as z from "zod";
import { requireUser } from "../auth/middleware.ts";
import type { AppEnv } from "../http/context.ts";
import { route } from "../http/route.ts";
import { slugParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { lintResult, verdict } from "./shapes.ts";
import { loadLintInput } from "./load-lint-input.ts";
import { callerProject } from "../projects/caller-project.ts";
import { loadLinter } from "./load-linter.ts";

export const lintRoutes = new Hono<AppEnv>().use(requireUser).post(
  "/:slug/lint",
  route(
    {
      operationId: "lintProject", summary: "Lint the project (HyperFrames' lint --json shape)", tag: "checks", access: "user",
      request: () => ({ params: slugParams(), body: { json: z.strictObject({ verbose: z.boolean().optional().describe("include info findings (a summary of the composition)") }) } }),
      responses: () => ({ 200: json(verdict(lintResult()), "the findings") }),
      errors: [400, 404],
    },
    async (c, input) => {
      const ref = await callerProject(c);
      const { verbose } = await input.body();
      const { lintProject } = await loadLinter();
      const result = lintProject(await loadLintInput(c.env.FILES, ref), { verbose: verbose ?? false });
      return c.json({ ok: result.ok, exitCode: result.ok ? 0 : 1, result });
    },
  ),
);
