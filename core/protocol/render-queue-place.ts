// Where a queued render stands in the queue (worker/renders/farm/queue-place.ts reads it): the state of a queued
// render and a render's quote (render-quote.ts) carry it.
import * as z from "zod";

/** Where a queued render stands: render work queued before it, and when a node should take it at the recent pace. */
export const RenderQueuePlaceSchema = z
  .object({
    position: z.number().int().positive().describe("1: next for a free node; counts render, segment and join jobs queued before it (the fair claim order across users can move it)"),
    etaSeconds: z.number().int().nonnegative().nullable().describe("seconds until a node should start it, from the running time of recent renders and the nodes seen; null before any render finished"),
  })
  .meta({ id: "RenderQueuePlace" });
export type RenderQueuePlace = z.infer<typeof RenderQueuePlaceSchema>;
