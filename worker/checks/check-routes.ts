// POST /api/projects/:slug/check — lint (here, in the Worker), then the composition in headless Chromium on a
// render node: runtime problems while it loads and plays, and layout inspection at sample times.
import { Hono } from "hono";
import * as z from "zod";
import { checkBody, timePastEnd } from "../../core/browser/browser-options.ts";
import { checkFinding, combineCheck, type CheckFinding } from "../../core/browser/check-findings.ts";
import { CheckJobResultSchema } from "../../core/protocol/finding-schema.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { waitForJob } from "./wait-for-job.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { badRequest } from "../http/errors.ts";
import { readJson } from "../http/validate.ts";
import { enqueueCappedJob } from "./capped-jobs.ts";
import { requireCompositionWithinLimits } from "../limits/composition-size.ts";
import { loadLintInput } from "./load-lint-input.ts";
import { requireRenderNode } from "../renders/farm/node-presence.ts";
import { requireProject } from "../projects/store.ts";
import { loadLinter } from "./load-linter.ts";

function parseResult(text: string | null): z.infer<typeof CheckJobResultSchema> | null {
  try {
    const parsed = CheckJobResultSchema.safeParse(text ? JSON.parse(text) : null);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const checkRoutes = new Hono<AppEnv>().use(requireUser).post("/:slug/check", async (c) => {
  const ref = { userId: currentUser(c).id, slug: c.req.param("slug") };
  const db = openDb(c.env.DB);
  const project = await requireProject(db, ref);
  const options = await readJson(c, checkBody);
  const past = timePastEnd(options.at, project.duration);
  if (past) throw badRequest(past);
  await requireCompositionWithinLimits(c.env, ref, "index.html");
  await requireRenderNode(db, "check the composition in a browser");
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
});
