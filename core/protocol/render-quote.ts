// What a render is expected to cost before it starts (issue 34, point 3): its frames and size as the Worker reads
// them statically from the composition, the node seconds and wall seconds the farm model estimates, and its place in
// the queue. POST .../render with dryRun answers it alone; a real render's 202 carries the same quote, kept in its
// state, and at its end the render's actual seconds are kept beside it.
import * as z from "zod";
import { RenderQueuePlaceSchema } from "./render-queue-place.ts";

export const RenderQuoteSchema = z
  .object({
    frames: z.number().int().positive().nullable().describe("frames the render will capture; null when the length cannot be read from the composition's HTML (then `reason` says why and the estimates are null)"),
    fps: z.number().positive().describe("the frame rate the render will use: the fps option, else the root's data-fps, else 30 (a GIF: 15)"),
    width: z.number().int().positive().nullable().describe("the output's width in pixels; null when the root declares no data-width"),
    height: z.number().int().positive().nullable().describe("the output's height in pixels; null when the root declares no data-height"),
    renderSeconds: z.number().nonnegative().nullable().describe("estimated node seconds the render will use (every segment and the join of a split render)"),
    wallSeconds: z.number().nonnegative().nullable().describe("estimated seconds from a node's claim to the file, split or whole as the farm would decide now"),
    segments: z.number().int().positive().nullable().describe("how many nodes would render it: 1 is whole, more is split and joined"),
    queue: RenderQueuePlaceSchema.describe("its place in the queue were it queued now, and when a node should take it"),
    model: z
      .object({
        version: z.string().describe("the fitted model's version: quotes of one version compare"),
        basis: z.string(),
        throughputScale: z.number().positive().optional().describe("the factor the model's estimate was multiplied by: recent renders' actual over estimated node seconds (median), 1 with none; absent on quotes made before the fitted model"),
      })
      .describe("the model behind the estimates: its version, what it rests on and the farm's pace it was scaled by"),
    reason: z.string().nullable().describe("why some figures are null; null when all are known"),
  })
  .meta({ id: "RenderQuote" });
export type RenderQuote = z.infer<typeof RenderQuoteSchema>;

/** What a finished render actually used, kept beside its quote. */
export const RenderActualSchema = z
  .object({
    renderSeconds: z.number().nonnegative().describe("node seconds used: the sum of its render, segment and join jobs' running time"),
    wallSeconds: z.number().nonnegative().describe("seconds from its first claim to its end"),
  })
  .meta({ id: "RenderActual" });
export type RenderActual = z.infer<typeof RenderActualSchema>;

/** The answer of a dry run: the quote alone; nothing was started, stored or queued. */
/** Whether a render (or a batch's rows together) would fit the daily budgets of its caller now (issue 34, point 4). */
export const BudgetFitSchema = z
  .object({
    fits: z.boolean().describe("false: the render would be refused now with 429 budget_exceeded"),
    budgets: z
      .array(
        z.object({
          kind: z.enum(["user", "token", "bot", "grant"]),
          id: z.string(),
          limit: z.number().describe("render-seconds per UTC day"),
          used: z.number().describe("render-seconds used today, renders in progress counted at their estimate"),
          left: z.number(),
        }),
      )
      .describe("every budget that applies to the caller"),
    resetsAt: z.string().describe("the next UTC midnight"),
  })
  .meta({ id: "BudgetFit" });

export type BudgetFit = z.infer<typeof BudgetFitSchema>;

export const DryRunAnswerSchema = z.object({ dryRun: z.literal(true), quote: RenderQuoteSchema, budget: BudgetFitSchema }).meta({ id: "RenderDryRun" });

/** The answer of a batch's dry run: one row's quote (rows differ only in variables, which the quote does not read) and
 * the batch's totals, its rows rendered one after another. */
export const BatchDryRunAnswerSchema = z
  .object({
    dryRun: z.literal(true),
    rows: z.number().int().positive(),
    quote: RenderQuoteSchema.describe("one row's quote"),
    renderSeconds: z.number().nonnegative().nullable().describe("estimated node seconds of every row"),
    wallSeconds: z.number().nonnegative().nullable().describe("estimated seconds of every row, one after another, from the first claim"),
    budget: BudgetFitSchema.describe("whether every row together fits the caller's budgets now"),
  })
  .meta({ id: "BatchDryRun" });
