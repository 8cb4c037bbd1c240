// A render node key as GET/POST /api/node-keys answer it (never the key itself, but once at creation). Built on
// first use. Pure (zod and core/ only): the dashboard's node keys panel is typed from it.
import * as z from "zod";
import { lazy } from "../../../core/lazy.ts";

export const nodeKey = lazy(() => z.object({ id: z.string(), name: z.string(), createdAt: z.string(), lastSeenAt: z.string().nullable(), online: z.boolean() }));

/** GET /api/node-keys. */
export const nodeKeyList = lazy(() => z.object({ nodeKeys: z.array(nodeKey()) }));

/** POST /api/node-keys: the new key, with the key itself, this once. */
export const issuedNodeKey = lazy(() => nodeKey().extend({ key: z.string().describe("stn_…, shown once") }));
