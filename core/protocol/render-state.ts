// The public contract of a render: its state as GET/POST .../render, GET /api/renders/:id, project summaries and the
// event streams show it, and each event of those streams. The Worker builds the state in one function
// (worker/renders/state.ts) and checks it against these schemas in tests; the OpenAPI document, the dashboard, the
// CLI, MCP and the browser-job waits read them from here. Nothing else describes a render's public shape.
import { jsonObjectValue } from "../json-object-shape.ts";
import * as z from "zod";
import { FORMATS, QUALITIES, RESOLUTIONS, type Resolution } from "../render/render-options.ts";
import { RenderProgressSchema } from "./progress.ts";
import { RenderQueuePlaceSchema } from "./render-queue-place.ts";
import { RenderActualSchema, RenderQuoteSchema } from "./render-quote.ts";

export type { RenderProgress } from "./progress.ts";
export { RenderQueuePlaceSchema, type RenderQueuePlace } from "./render-queue-place.ts";

export const RENDER_STATUSES = ["queued", "rendering", "done", "failed", "cancelled"] as const;
export const RenderStatusSchema = z.enum(RENDER_STATUSES);
export type RenderStatus = z.infer<typeof RenderStatusSchema>;

/** Statuses of a render that has not ended. */
const IN_PROGRESS: readonly RenderStatus[] = ["queued", "rendering"];

export function isInProgress(status: string): status is "queued" | "rendering" {
  return (IN_PROGRESS as readonly string[]).includes(status);
}

/** One frame range of a split render: which node rendered it, after how many tries. */
export const RenderSegmentSchema = z
  .object({
    index: z.number().int().nonnegative(),
    fromFrame: z.number().int().nonnegative(),
    toFrame: z.number().int().positive().describe("exclusive"),
    node: z.string().nullable().describe("the node (key name/process id) that holds or held it"),
    attempts: z.number().int().nonnegative(),
    status: RenderStatusSchema,
  })
  .meta({ id: "RenderSegment" });
export type RenderSegment = z.infer<typeof RenderSegmentSchema>;


/**
 * Incremental re-render: what a done render took from the previous render of the same composition it was handed
 * (every field absent when it was handed none). The render's state and the render list show the same fields.
 */
const RenderCarriedFields = {
  carriedFrom: z.string().optional().describe("a done render that was handed an earlier render of the same project and composition to reuse unchanged segments from: that render's id"),
  carriedSegments: z.number().int().nonnegative().optional().describe("how many fixed segments were taken from `carriedFrom` (every frame proven unchanged: sought, neither captured nor encoded); 0 when none could be"),
  carriedFrames: z.number().int().nonnegative().optional().describe("how many frames those segments hold"),
};

/** A range render's from or to as the request gave it (core/render/render-range.ts). */
const RangePointSchema = z.union([z.number(), z.string()]);

/** A caller's own JSON object (the `metadata` render option), handed back as it was given. */
export const CallerMetadataSchema = z.record(z.string(), jsonObjectValue()).meta({ id: "CallerMetadata" });

/** The render cache's mark, declared once for the render's state and its list entry. */
const ReusedFromSchema = z
  .string()
  .describe(
    "present on a render answered from the render cache: the id of the done render of this project with the very same inputs (files, options, variables, render engine) whose file (and poster) this render's are a copy of; no node rendered it and it was charged no render-seconds; its log starts with that render's log, findings included",
  );

export const RenderStateSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    status: RenderStatusSchema,
    startedAt: z.number().int().describe("epoch milliseconds"),
    doneAt: z.number().int().nullable(),
    filename: z.string().describe("<slug>_<YYYY-MM-DD>_<HH-MM-SS>.<ext>"),
    downloadUrl: z.string().nullable().describe("/renders/<filename> while the file exists: done, not deleted"),
    posterUrl: z.string().nullable().describe("/renders/<filename>/poster (image/jpeg: one frame of the video, at the root's data-poster-time or else 3 s in, the middle of a video of 3 s or less) while the download is offered and the poster was made; else null"),
    posterError: z.string().nullable().describe("why a done render has no poster (the render is done all the same); null otherwise"),
    liveUrl: z.string().optional().describe("/api/renders/<id>/live.m3u8 while an mp4 or webm render kept whole on one node is queued or rendering: an HLS EVENT playlist of its finished one-second segments so far (fragmented MP4), ENDLIST once all are captured; absent otherwise (when it has ended, downloadUrl is the video)"),
    lastLine: z.string(),
    eventsUrl: z.string(),
    format: z.enum(FORMATS),
    quality: z.enum(QUALITIES),
    fps: z.union([z.number(), z.string()]).nullable().describe('as asked: an integer or "num/den"; null: the composition\'s'),
    resolution: z.enum(Object.keys(RESOLUTIONS) as [Resolution, ...Resolution[]]).nullable(),
    composition: z.string(),
    from: RangePointSchema.optional().describe("a range render's `from` as asked (seconds, or a frame as \"75f\"); absent: the composition's start"),
    to: RangePointSchema.optional().describe("a range render's `to` as asked (exclusive); absent: the composition's end"),
    progress: RenderProgressSchema.nullable(),
    error: z.string().nullable(),
    size: z.number().int().nullable(),
    segments: z.array(RenderSegmentSchema).nullable().describe("which node rendered which frames of a split render; null for a render done whole"),
    queue: RenderQueuePlaceSchema.optional().describe("while queued, once the room has looked (within 5 s): its place in the queue and an estimate of when it starts"),
    metadata: CallerMetadataSchema.optional().describe("the render's `metadata` option, as given (a batch row's: the batch's); absent when none was given"),
    quote: RenderQuoteSchema.optional().describe("what the render was expected to cost when it was asked for (the same quote its 202 and a dry run answer); absent on renders from before quotes"),
    actual: RenderActualSchema.optional().describe("once it ended after a node took it: the node seconds and wall seconds it actually used, beside the quote"),
    reusedFrom: ReusedFromSchema.optional(),
    ...RenderCarriedFields,
  })
  .meta({ id: "RenderState" });
export type RenderState = z.infer<typeof RenderStateSchema>;

/** The state with its whole log: GET .../render, and POST .../render with wait. */
export const RenderWithLogSchema = RenderStateSchema.extend({
  lines: z.array(z.string()).describe("the full log"),
}).meta({ id: "RenderWithLog" });
export type RenderWithLog = z.infer<typeof RenderWithLogSchema>;

/** A rendered file the user still has: GET /api/renders, and a project's `recent` renders. */
export const RenderListEntrySchema = z
  .object({
    id: z.string().describe("the render's id: GET /api/renders/{id} for its state, /api/renders/{id}/deliveries for its webhooks"),
    filename: z.string(),
    project: z.string(),
    size: z.number().int(),
    mtime: z.string().describe("ISO 8601 time"),
    url: z.string(),
    posterUrl: z.string().nullable().describe("/renders/<filename>/poster, the render's poster image (image/jpeg); null when it has none (its state's posterError says why)"),
    reusedFrom: ReusedFromSchema.optional(),
    ...RenderCarriedFields,
  })
  .meta({ id: "RenderListEntry" });
export type RenderListEntry = z.infer<typeof RenderListEntrySchema>;

/** A project that never rendered, as its stream shows it. */
export const NoRenderSchema = z.object({ status: z.literal("none") });

/** A render's state, or "none" for a project that never rendered (whose state fields are then all absent). */
export type RenderOrNone = RenderState | ({ status: "none" } & { [K in Exclude<keyof RenderState, "status">]?: undefined });

/** GET .../render of a project with no render in its room: its recent rendered files. */
export const NoCurrentRenderSchema = NoRenderSchema.extend({ recent: z.array(RenderListEntrySchema) }).meta({ id: "NoCurrentRender" });

// ── Batches ────────────────────────────────────────────────────────────────────────────────────────────────────
// POST/GET/DELETE .../batch: one render per row of variables, one after another (worker/renders/room/batch-run.ts).

export const BATCH_STATUSES = ["queued", "rendering", "done", "failed", "cancelled"] as const;
/** A row not started yet is `pending`; then its render's status. */
export const BATCH_ROW_STATUSES = ["pending", ...RENDER_STATUSES] as const;

export const BatchRowStateSchema = z
  .object({
    index: z.number().int().nonnegative(),
    name: z.string().nullable(),
    status: z.enum(BATCH_ROW_STATUSES),
    renderId: z.string().nullable().describe("the row's render (GET /api/renders/{id}) once started"),
    filename: z.string().nullable().describe("<slug>-<name or index>_<YYYY-MM-DD>_<HH-MM-SS>.<ext>, once started"),
    downloadUrl: z.string().nullable().describe("/renders/<filename> when the row is done"),
    error: z.string().nullable().describe("why the row failed or was cancelled"),
  })
  .meta({ id: "BatchRowState" });

export const BatchStateSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    status: z.enum(BATCH_STATUSES).describe("done only when every row is done; failed when any row failed; cancelled by DELETE .../batch"),
    createdAt: z.number().int().describe("epoch milliseconds"),
    doneAt: z.number().int().nullable(),
    rows: z.array(BatchRowStateSchema),
    metadata: CallerMetadataSchema.optional().describe("the batch's `metadata` option, as given; absent when none was given"),
  })
  .meta({ id: "BatchState" });
export type BatchState = z.infer<typeof BatchStateSchema>;

/** GET .../batch of a project that never ran a batch. */
export const NoBatchSchema = z.object({ status: z.literal("none") }).meta({ id: "NoBatch" });

// ── Event streams ──────────────────────────────────────────────────────────────────────────────────────────────
// GET .../render/events: `snapshot` first (the state with its log, or none), then `start`, `line` per log line and
// `end`; GET .../events (the project's own stream): `render` at connection and at each start and end, `files`, and `batch` (at connection when the project has one,
// and at each batch start, row start, row end and batch end).

export const RenderLineEventSchema = z.object({
  line: z.string(),
  status: RenderStatusSchema,
  progress: RenderProgressSchema.nullable(),
  queue: RenderQueuePlaceSchema.optional().describe("with the line that says a queued render's place changed"),
});

export const FilesEventSchema = z.object({ written: z.array(z.string()), deleted: z.array(z.string()) });

export const RENDER_EVENTS = {
  snapshot: z.union([RenderWithLogSchema, NoCurrentRenderSchema]),
  start: RenderStateSchema,
  line: RenderLineEventSchema,
  end: RenderStateSchema,
} as const;

export const PROJECT_EVENTS = {
  render: z.union([RenderStateSchema, NoRenderSchema]),
  files: FilesEventSchema,
  batch: BatchStateSchema,
} as const;

export type RenderEventName = keyof typeof RENDER_EVENTS;
