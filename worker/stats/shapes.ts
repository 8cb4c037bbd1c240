// What GET /api/stats answers, as the OpenAPI document declares it. Built on first use. Pure (zod and core/ only):
// the dashboard's counters are typed from it.
import * as z from "zod";
import { lazy } from "../../core/lazy.ts";

export const publicStatsShape = lazy(() =>
  z.object({
    pageViews: z.number().int(),
    uniqueVisitors: z.number().int(),
    returningVisitors: z.number().int(),
    animationsCreated: z.number().int(),
    animationsNow: z.number().int(),
    rendersCompleted: z.number().int(),
    users: z.number().int(),
  }),
);
