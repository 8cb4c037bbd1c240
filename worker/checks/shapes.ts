// What lint, check and snapshot answer, as the OpenAPI document declares it. Built on first use. Pure (zod and
// core/ only): the dashboard parses these answers with the same schemas, so keep Worker-only imports out.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { CheckFindingSchema } from "../../core/protocol/finding-schema.ts";

/** One lint finding: HyperFrames' `lint --json` shape. */
export const lintFinding = lazy(() =>
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
      findings: z.array(lintFinding()),
      filesScanned: z.number().int(),
    })
    .meta({ id: "LintResult" }),
);

// Check's browser sections: findings as the node reports them (core/protocol/finding-schema.ts), with the
// composition `time` where one arose, every `times` a layout finding was seen at and its `box`.
const part = lazy(() => z.object({ ok: z.boolean(), errorCount: z.number().int(), warningCount: z.number().int(), infoCount: z.number().int(), findings: z.array(CheckFindingSchema) }));

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

/** POST …/snapshot: the frames written under snapshots/ and the log of taking them. */
export const snapshotResult = lazy(() => z.object({ ok: z.literal(true), snapshots: z.array(snapshot()), log: z.array(z.string()) }));

/**
 * A snapshot job as POST …/snapshot with `wait: false` (202) and GET …/snapshot/:id answer it: queued, running with
 * its stage, done with the frames and log the waiting call answers, failed or cancelled with why.
 */
export const snapshotJob = lazy(() =>
  z
    .object({
      id: z.string(),
      status: z.enum(["queued", "running", "done", "failed", "cancelled"]),
      stage: z.string().nullable().describe("what the render node is doing now (its last progress line); null before a node took it"),
      error: z.string().nullable().describe("why it failed or was cancelled (a node's error, a timeout naming the stage, a cancel)"),
      snapshots: z.array(snapshot()).describe("when done: the frames written under snapshots/"),
      log: z.array(z.string()).describe("when ended: the node's log of taking them"),
      createdAt: z.string().describe("ISO time it was queued"),
      finishedAt: z.string().nullable().describe("ISO time it ended"),
    })
    .meta({ id: "SnapshotJob" }),
);
export type SnapshotJob = z.infer<ReturnType<typeof snapshotJob>>;

/** The errors of a job run on a render node: none available (503), too slow (504), over the caps (429). */
export const BROWSER_ERRORS = [400, 404, 429, 503, 504];
