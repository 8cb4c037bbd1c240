// Request bodies of snapshot and check, as zod schemas (served in OpenAPI too). Shared by the Worker, which
// validates, and the render node, which reads the options back from the job. Built on first use (core/lazy.ts):
// only snapshot and check requests need them, not the Worker's startup.
import * as z from "zod";
import { lazy } from "../lazy.ts";

const MAX_TIMES = 60;
/** The most frames one snapshot makes: its times, and the extra frame at the end of the timeline. */
export const MAX_SNAPSHOT_FRAMES = MAX_TIMES + 1;

const times = () =>
  z.array(z.number().min(0, "times are seconds from the start, 0 or more")).min(1, "give at least one time").max(MAX_TIMES, `at most ${MAX_TIMES} times`);

export const snapshotBody = lazy(() =>
  z.strictObject({
    at: times().optional().describe("exact times in seconds; replaces the evenly spaced frames"),
    frames: z.number().int().min(1).max(MAX_TIMES).optional().describe("N evenly spaced frames from 0 (default 5)"),
    end: z.boolean().optional().describe("false skips the extra frame at the end of the timeline (default true)"),
  }),
);
export type SnapshotOptions = z.infer<ReturnType<typeof snapshotBody>>;

/** POST …/snapshot's body: the options, and whether the call waits for the frames (the node never sees `wait`). */
export const snapshotRequest = lazy(() =>
  snapshotBody().extend({
    wait: z.boolean().optional().describe("false: answer 202 at once with the job (GET …/snapshot/{id} for its status and frames); default true: answer with the frames"),
  }),
);

export const checkBody = lazy(() =>
  z.strictObject({
    at: times().optional().describe("exact times in seconds for the layout inspection; replaces the samples"),
    samples: z
      .number()
      .int()
      .min(1)
      .max(MAX_TIMES)
      .optional()
      .describe("layout inspection at this many evenly spaced midpoints of the timeline (default 9)"),
    strict: z.boolean().optional().describe("warnings fail the check too (ok false, exitCode 1)"),
  }),
);
export type CheckOptions = z.infer<ReturnType<typeof checkBody>>;

/** The first `at` entry past the end of the composition, as a 400 message naming the field; null when all fit. */
export function timePastEnd(at: readonly number[] | undefined, duration: number | null): string | null {
  if (!at || duration === null) return null;
  const index = at.findIndex((t) => t > duration);
  if (index < 0) return null;
  return `invalid at.${index}: ${at[index]} s is past the end of the composition (${duration} s)`;
}
