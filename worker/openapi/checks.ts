// Lint, browser check, snapshots and the preview server.
import * as z from "zod";
import { checkBody, snapshotBody } from "../../core/browser/browser-options.ts";
import { lintBody } from "../checks/lint-routes.ts";
import { previewState } from "./shapes.ts";
import { json, slugParam, type Operation } from "./operation.ts";

const finding = z.object({
  code: z.string(),
  severity: z.enum(["error", "warning", "info"]),
  message: z.string(),
  file: z.string(),
  selector: z.string().optional(),
  fixHint: z.string().optional(),
});

export const lintResult = z
  .object({
    ok: z.boolean(),
    errorCount: z.number().int(),
    warningCount: z.number().int(),
    infoCount: z.number().int(),
    findings: z.array(finding),
    filesScanned: z.number().int(),
  })
  .meta({ id: "LintResult" });

const part = z.object({ ok: z.boolean(), errorCount: z.number().int(), warningCount: z.number().int(), infoCount: z.number().int(), findings: z.array(finding.loose()) });

const checkResult = z
  .object({
    ok: z.boolean(),
    strict: z.boolean(),
    errorCount: z.number().int(),
    warningCount: z.number().int(),
    infoCount: z.number().int(),
    lint: lintResult,
    runtime: part,
    layout: part.extend({ times: z.array(z.number()) }),
  })
  .meta({ id: "CheckResult" });

const verdict = <T extends z.ZodType>(result: T) => z.object({ ok: z.boolean(), exitCode: z.union([z.literal(0), z.literal(1)]), result });

const snapshot = z.object({ path: z.string(), size: z.number().int(), url: z.string() });
const BROWSER_ERRORS = [400, 404, 429, 503, 504];

export const checkOperations: Operation[] = [
  {
    method: "post", path: "/api/projects/{slug}/lint", operationId: "lintProject", summary: "Lint the project (HyperFrames' lint --json shape)", tag: "checks", access: "user", params: slugParam,
    body: { json: lintBody }, responses: { 200: json(verdict(lintResult), "the findings") }, errors: [400, 404],
  },
  {
    method: "post", path: "/api/projects/{slug}/check", operationId: "checkProject", summary: "Lint, headless runtime check and layout inspection on a render node", tag: "checks", access: "user", params: slugParam,
    body: { json: checkBody }, responses: { 200: json(verdict(checkResult), "the findings") }, errors: BROWSER_ERRORS,
  },
  {
    method: "post", path: "/api/projects/{slug}/snapshot", operationId: "snapshotProject", summary: "PNG frames and a contact sheet in snapshots/", tag: "checks", access: "user", params: slugParam,
    body: { json: snapshotBody },
    responses: {
      200: json(z.object({ ok: z.literal(true), snapshots: z.array(snapshot), log: z.array(z.string()) }), "the frames"),
    },
    errors: [...BROWSER_ERRORS, 422],
  },
  {
    method: "post", path: "/api/projects/{slug}/preview", operationId: "startPreview", summary: "Start (or return) the project's preview server", tag: "checks", access: "user", params: slugParam,
    responses: { 200: json(previewState, "the preview") }, errors: [400, 404, 429, 502, 503, 504],
  },
  { method: "get", path: "/api/projects/{slug}/preview", operationId: "getPreview", summary: "Preview state", tag: "checks", access: "user", params: slugParam, responses: { 200: json(previewState, "the preview") }, errors: [404] },
  {
    method: "delete", path: "/api/projects/{slug}/preview", operationId: "stopPreview", summary: "Stop the preview server", tag: "checks", access: "user", params: slugParam,
    responses: { 200: json(z.object({ stopped: z.boolean() }), "stopped") }, errors: [404],
  },
];
