// The zod schemas of a finding (core/protocol/finding.ts) for what crosses the node protocol: a render plan's
// findings, and a check job's result (check's findings add `times` and a `box`).
import * as z from "zod";
import { CHECK_CODES } from "../browser/check-findings.ts";
import { FINDING_CODES, FINDING_LIMITS, type Finding } from "./finding.ts";

export const FindingSchema = z.object({
  code: z.enum(FINDING_CODES),
  severity: z.enum(["error", "warning", "info"]),
  file: z.string().max(FINDING_LIMITS.file),
  selector: z.string().max(FINDING_LIMITS.selector).optional(),
  time: z.number().nonnegative().optional(),
  message: z.string().max(FINDING_LIMITS.message),
  fixHint: z.string().max(FINDING_LIMITS.fixHint).optional(),
  asset: z.string().max(FINDING_LIMITS.file).optional(),
});

// The schema and the interface describe one shape: this fails to compile if they drift.
const sameShape: [z.infer<typeof FindingSchema>, Finding] extends [Finding, z.infer<typeof FindingSchema>] ? true : never = true;
void sameShape;

const BoxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

/** One finding of check's runtime or layout section, as the node reports it and the API answers it. */
export const CheckFindingSchema = FindingSchema.omit({ asset: true }).extend({
  code: z.enum(CHECK_CODES),
  times: z.array(z.number()).optional(),
  box: BoxSchema.optional(),
});

/** The result of a check job: the browser half of POST .../check. */
export const CheckJobResultSchema = z.object({
  runtime: z.array(CheckFindingSchema),
  layout: z.array(CheckFindingSchema),
  times: z.array(z.number()),
});
