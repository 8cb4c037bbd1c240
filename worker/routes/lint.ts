// POST /api/projects/:slug/lint → { ok, exitCode, result } with result shaped like HyperFrames' `lint --json`.
import { Hono } from "hono";
import { z } from "zod";
import { lintProject } from "../../core/lint/index.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { readJson } from "../http/validate.ts";
import { loadLintInput } from "../lint/load-lint-input.ts";
import { requireProject } from "../projects/store.ts";

export const lintBody = z.strictObject({
  verbose: z.boolean().optional().describe("include info findings (a summary of the composition)"),
});

export const lintRoutes = new Hono<AppEnv>().use(requireUser).post("/:slug/lint", async (c) => {
  const ref = { userId: currentUser(c).id, slug: c.req.param("slug") };
  await requireProject(openDb(c.env.DB), ref);
  const { verbose } = await readJson(c, lintBody);
  const result = lintProject(await loadLintInput(c.env.FILES, ref), { verbose: verbose ?? false });
  return c.json({ ok: result.ok, exitCode: result.ok ? 0 : 1, result });
});
