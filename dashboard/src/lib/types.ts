// Shapes of the API responses the dashboard reads: each is the type of the zod schema the Worker declares the
// response with (the OpenAPI document's), never a copy. Type-only imports: they add nothing to the bundle. The
// schema modules imported here are pure (zod and core/ only), so a reader may also parse with them at run time.
import type * as z from "zod";
import type { snapshotResult } from "../../../worker/checks/shapes.ts";
import type { bot, botList, group, groupList, issuedBot } from "../../../worker/ideas/shapes.ts";
import type { connectedApp, connectedAppList } from "../../../worker/oauth/shapes.ts";
import type { usageSchema } from "../../../worker/budgets/shapes.ts";
import type { contentLink, fileEntry, fileList, identity, previewState, publicUser, rotatedToken } from "../../../worker/openapi/shapes.ts";
import type { health } from "../../../worker/ops/shapes.ts";
import type { createdProject, projectDetail, projectList, projectListEntry } from "../../../worker/projects/shapes.ts";
import type { issuedNodeKey, nodeKey, nodeKeyList } from "../../../worker/renders/farm/shapes.ts";
import type { batchStopped, renderList } from "../../../worker/renders/shapes.ts";
import type { publicStatsShape } from "../../../worker/stats/shapes.ts";
import type { RenderListEntry, RenderOrNone, RenderProgress } from "../../../core/protocol/render-state.ts";

type Shape<T extends () => z.ZodType> = z.infer<ReturnType<T>>;

export type User = Shape<typeof publicUser>;
/** GET /api/health: who is signed in, the login flags, and whether the caller is an admin. */
export type Health = Shape<typeof health>;
/** GET /api/me: the person, their token, and storage used of the quota. */
export type Identity = Shape<typeof identity>;
export type RotatedToken = Shape<typeof rotatedToken>;
export type Stats = Shape<typeof publicStatsShape>;
export type PreviewState = Shape<typeof previewState>;
/** An entry of GET /api/projects (with its one-hour contentUrl). */
export type ProjectSummary = Shape<typeof projectListEntry>;
/** GET /api/projects. */
export type ProjectList = Shape<typeof projectList>;
export type ProjectDetail = Shape<typeof projectDetail>;
export type CreatedProject = Shape<typeof createdProject>;
export type FileEntry = Shape<typeof fileEntry>;
/** GET /api/projects/:slug/files. */
export type ProjectFileList = Shape<typeof fileList>;
/** POST /api/projects/:slug/share. */
export type ShareLink = Shape<typeof contentLink>;
/** POST …/snapshot. */
export type SnapshotResult = Shape<typeof snapshotResult>;
/** DELETE …/batch. */
export type BatchStopped = Shape<typeof batchStopped>;
export type ConnectedApp = Shape<typeof connectedApp>;
/** GET /api/usage: render-seconds by UTC day and the budgets, per account (you, your token, bot keys, apps). */
export type Usage = Shape<typeof usageSchema>;
export type UsageAccount = Usage["accounts"][number];
/** GET /api/me/apps. */
export type ConnectedAppList = Shape<typeof connectedAppList>;
export type NodeKey = Shape<typeof nodeKey>;
/** GET /api/node-keys. */
export type NodeKeyList = Shape<typeof nodeKeyList>;
/** POST /api/node-keys: the key itself, shown once. */
export type IssuedNodeKey = Shape<typeof issuedNodeKey>;
/** An idea-board bot (GET /api/bots); its key is shown once, at creation. */
export type Bot = Shape<typeof bot>;
export type BotList = Shape<typeof botList>;
/** POST /api/bots. */
export type IssuedBot = Shape<typeof issuedBot>;
/** An idea group (GET /api/groups). */
export type Group = Shape<typeof group>;
export type GroupList = Shape<typeof groupList>;

// A render's public shape is the contract in core/protocol/render-state.ts; the page adds "none" for a project
// that never rendered (what its streams say then).
export type { RenderProgress };
export type RenderState = RenderOrNone;
/** An entry of GET /api/renders. */
export type RenderFile = RenderListEntry;
/** GET /api/renders. */
export type RenderList = Shape<typeof renderList>;

/** Terminal render statuses; anything else (queued, rendering) is in progress. */
export const FINISHED = new Set(["none", "done", "failed", "cancelled"]);
