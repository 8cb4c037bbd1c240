// POST /api/projects/:slug/lint → { ok, exitCode, result } with result shaped like HyperFrames' `lint --json`.
import { Hono } from "hono";
import * as z from "zod";
import { requireUser } from "../auth/middleware.ts";
import type { AppEnv } from "../http/context.ts";
import { readJson } from "../http/validate.ts";
import { loadLintInput } from "./load-lint-input.ts";
import { callerProject } from "../projects/caller-project.ts";
import { loadLinter } from "./load-linter.ts";

export const lintBody = z.strictObject({
  verbose: z.boolean().optional().describe("include info findings (a summary of the composition)"),
});

export const lintRoutes = new Hono<AppEnv>().use(requireUser).post("/:slug/lint", async (c) => {
  const ref = await callerProject(c);
  const { verbose } = await readJson(c, lintBody);
  const { lintProject } = await loadLinter();
  const result = lintProject(await loadLintInput(c.env.FILES, ref), { verbose: verbose ?? false });
  return c.json({ ok: result.ok, exitCode: result.ok ? 0 : 1, result });
});
