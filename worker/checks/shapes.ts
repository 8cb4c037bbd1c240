// What lint, check and snapshot answer, as the OpenAPI document declares it. Built on first use.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";

const finding = lazy(() =>
  z.object({
    code: z.string(),
    severity: z.enum(["error", "warning", "info"]),
    message: z.string(),
    file: z.string(),
    selector: z.string().optional(),
    fixHint: z.string().optional(),
  }),
);

export const lintResult = lazy(() =>
  z
    .object({
      ok: z.boolean(),
      errorCount: z.number().int(),
      warningCount: z.number().int(),
      infoCount: z.number().int(),
      findings: z.array(finding()),
      filesScanned: z.number().int(),
    })
    .meta({ id: "LintResult" }),
);

const part = lazy(() => z.object({ ok: z.boolean(), errorCount: z.number().int(), warningCount: z.number().int(), infoCount: z.number().int(), findings: z.array(finding().loose()) }));

export const checkResult = lazy(() =>
  z
    .object({
      ok: z.boolean(),
      strict: z.boolean(),
      errorCount: z.number().int(),
      warningCount: z.number().int(),
      infoCount: z.number().int(),
      lint: lintResult(),
      runtime: part(),
      layout: part().extend({ times: z.array(z.number()) }),
    })
    .meta({ id: "CheckResult" }),
);

/** { ok, exitCode, result }: the CLI-like verdict lint and check answer. */
export const verdict = <T extends z.ZodType>(result: T) => z.object({ ok: z.boolean(), exitCode: z.union([z.literal(0), z.literal(1)]), result });

export const snapshot = lazy(() => z.object({ path: z.string(), size: z.number().int(), url: z.string() }));

/** The errors of a job run on a render node: none available (503), too slow (504), over the caps (429). */
export const BROWSER_ERRORS = [400, 404, 429, 503, 504];
