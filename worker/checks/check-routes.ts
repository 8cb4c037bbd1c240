// POST /api/projects/:slug/check — lint (here, in the Worker), then the composition in headless Chromium on a
// render node: runtime problems while it loads and plays, and layout inspection at sample times.
import { Hono } from "hono";
import * as z from "zod";
import { checkBody } from "../../core/browser/browser-options.ts";
import { checkFinding, combineCheck, type CheckFinding } from "../../core/browser/check-findings.ts";
import { CheckJobResultSchema } from "../../core/protocol/finding-schema.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { waitForJob } from "./wait-for-job.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { route } from "../http/route.ts";
import { slugParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { BROWSER_ERRORS, checkResult, verdict } from "./shapes.ts";
import { enqueueCappedJob } from "./capped-jobs.ts";
import { requireBrowserJobReady } from "./browser-job-ready.ts";
import { loadLintInput } from "./load-lint-input.ts";
import { requireProject } from "../projects/store.ts";
import { loadLinter } from "./load-linter.ts";
import { parseJson } from "../../core/parse-text.ts";

function parseResult(text: string | null): z.infer<typeof CheckJobResultSchema> | null {
  const json = text ? parseJson(text) : { ok: true as const, value: null };
  if (!json.ok) return null; // a node's result that is not JSON is no result, as one that fails the schema
  const parsed = CheckJobResultSchema.safeParse(json.value);
  return parsed.success ? parsed.data : null;
}

export const checkRoutes = new Hono<AppEnv>().use(requireUser).post(
  "/:slug/check",
  route(
    {
      operationId: "checkProject", summary: "Lint, headless runtime check and layout inspection on a render node", tag: "checks", access: "user",
      request: () => ({ params: slugParams(), body: { json: checkBody() } }),
      responses: () => ({ 200: json(verdict(checkResult()), "the findings") }),
      errors: BROWSER_ERRORS,
    },
    async (c, input) => {
      const ref = { userId: currentUser(c).id, slug: input.param("slug") };
      const db = openDb(c.env.DB);
      const project = await requireProject(db, ref);
      const options = await input.body();
      await requireBrowserJobReady(c.env, db, ref, options.at, project.duration, "check the composition in a browser");
      const { lintProject } = await loadLinter();
      const lint = lintProject(await loadLintInput(c.env.FILES, ref), { verbose: false });
      const id = crypto.randomUUID();
      await enqueueCappedJob(db, c.env, { id, userId: ref.userId, slug: ref.slug, kind: "check", options });
      const job = await waitForJob(db, c.env, id, "check", c.req.raw.signal);
      const reported = parseResult(job.result);
      const runtime: CheckFinding[] = reported?.runtime ?? [
        checkFinding("composition-load-failed", "index.html", `the browser check did not finish: ${job.error ?? "the node reported no result"}`),
      ];
      const result = combineCheck({ lint, runtime, layout: reported?.layout ?? [], times: reported?.times ?? [], strict: options.strict ?? false });
      return c.json({ ok: result.ok, exitCode: result.ok ? 0 : 1, result });
    },
  ),
);
