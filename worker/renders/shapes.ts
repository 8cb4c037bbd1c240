// Answers of the render and batch endpoints that are not the room's own state (that contract is
// core/protocol/render-state.ts). Built on first use. Pure (zod and core/ only): the dashboard is typed from them.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";
import { BatchStateSchema, RenderListEntrySchema } from "../../core/protocol/render-state.ts";
import { nextCursor } from "../openapi/shapes.ts";

/** DELETE …/batch: whether a batch was stopped, and the batch as it ended. */
export const batchStopped = lazy(() => z.object({ stopped: z.boolean().describe("whether a batch was in progress"), batch: BatchStateSchema.nullable() }));

/** GET /api/renders: the caller's rendered files, newest first, a page at a time. */
export const renderList = lazy(() => z.object({ renders: z.array(RenderListEntrySchema), next: nextCursor() }));
