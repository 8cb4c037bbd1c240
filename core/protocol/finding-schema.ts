// The zod schema of a finding (core/protocol/finding.ts), for what crosses the node protocol.
import * as z from "zod";
import { FINDING_CODES, type Finding } from "./finding.ts";

export const FindingSchema = z.object({
  code: z.enum(FINDING_CODES),
  severity: z.enum(["error", "warning", "info"]),
  file: z.string().max(1000),
  selector: z.string().max(1000).optional(),
  time: z.number().nonnegative().optional(),
  message: z.string().max(4000),
  fixHint: z.string().max(2000).optional(),
  asset: z.string().max(1000).optional(),
});

// The schema and the interface describe one shape: this fails to compile if they drift.
const sameShape: [z.infer<typeof FindingSchema>, Finding] extends [Finding, z.infer<typeof FindingSchema>] ? true : never = true;
void sameShape;
