// Render options of POST /api/projects/:slug/render, validated up front with messages that name the option and
// the allowed values. Pure: the Worker validates with it, the render node trusts what it produced.
import * as z from "zod";
import { lazy } from "../lazy.ts";
import { COMPOSITION_LIMITS } from "../composition/composition-limits.ts";
import { checkProjectPath } from "../paths/project-path.ts";
import { RENDER_VARIABLE_LIMITS, variablesShapeProblem } from "./render-variables.ts";
import { jsonObjectProblem, jsonObjectValue, type JsonObject } from "../json-object-shape.ts";
import { rangeOrderProblem, rangePointProblem, RANGE_POINT_RULE, type RangePoint } from "./render-range.ts";

export const QUALITIES = ["draft", "standard", "high"] as const;
export const FORMATS = ["mp4", "webm", "mov", "gif", "png-sequence"] as const;
/** Output presets; each fits COMPOSITION_LIMITS (tested), and a preset only scales the page to fit inside it. */
export const RESOLUTIONS = {
  landscape: { width: 1920, height: 1080 },
  portrait: { width: 1080, height: 1920 },
  square: { width: 1080, height: 1080 },
  "landscape-4k": { width: 3840, height: 2160 },
  "portrait-4k": { width: 2160, height: 3840 },
} as const;
export const MAX_FPS = COMPOSITION_LIMITS.maxFps;
/**
 * What a GIF gets unless the request says otherwise: a GIF is for a chat or a README, and at the composition's
 * full 1080p and 30 fps a 4 s clip weighs 20 MB. Width keeps the aspect and never upscales; fps is at most this
 * (a root data-fps below it is kept).
 */
export const GIF_DEFAULTS = { width: 720, fps: 15 } as const;
/** The largest crf per format that takes one (HyperFrames' ranges: x264 0-51, VP9 0-63); others have no crf. */
export const CRF_MAX: Partial<Record<Format, number>> = { mp4: 51, webm: 63 };
/** videoBitrate as HyperFrames reads it: bits per second with an optional k, M or G; bounded here. */
export const VIDEO_BITRATE_RANGE = { min: 50_000, max: 500_000_000, minText: "50k", maxText: "500M" } as const;
export const GIF_LOOP_MAX = 65535;
/** What a render's `metadata` may weigh: it is stored with the render and sent in every webhook delivery. */
export const RENDER_METADATA_LIMITS = { bytes: 4096, keys: 50, depth: 5, keyLength: 100 } as const;
/** A png-sequence is every frame as a PNG in one zip: bounded so one render cannot fill a node's disk (2 min at 30 fps). */
export const MAX_PNG_SEQUENCE_FRAMES = 3600;

export type Quality = (typeof QUALITIES)[number];
export type Format = (typeof FORMATS)[number];
export type Resolution = keyof typeof RESOLUTIONS;

export interface RenderOptions {
  quality: Quality;
  /** As given: an integer, or "num/den" passed to ffmpeg exactly. Null means the default: the root's data-fps, else 30 (a GIF: GIF_DEFAULTS.fps). */
  fps: number | string | null;
  format: Format;
  composition: string;
  resolution: Resolution | null;
  strict: boolean;
  wait: boolean;
  /** Called when this render ends (worker/webhooks/); the project's webhook when absent. */
  webhookUrl?: string;
  /** Values over the root's declared variable defaults (render-variables.ts); absent: the defaults. */
  variables?: Record<string, unknown>;
  /** Refuse undeclared or mistyped `variables` keys instead of warning. */
  strictVariables: boolean;
  /** Encoder crf in place of the quality's (mp4 and webm only). */
  crf?: number;
  /** Target video bitrate such as "10M" in place of the quality's crf (mp4 and webm only). */
  videoBitrate?: string;
  /** A GIF's loop count; 0 (the default) loops forever. */
  gifLoop?: number;
  /** The caller's own JSON object, kept with the render and echoed in its state and every webhook delivery. */
  metadata?: JsonObject;
  /** Answer the render's quote (core/protocol/render-quote.ts) and start nothing. */
  dryRun?: boolean;
  /** Render anew even when a finished render of the project had the same inputs (the render cache skipped). */
  force?: boolean;
  /** Render only frames [from, to) (render-range.ts): seconds, or "<frame>f"; absent: the start, the end. */
  from?: RangePoint;
  to?: RangePoint;
}

export const FORMAT_CONTENT_TYPES: Record<Format, string> = {
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
  gif: "image/gif",
  "png-sequence": "application/zip",
};

/** The download's file extension per format. */
export const FORMAT_EXTENSIONS: Record<Format, string> = { mp4: "mp4", webm: "webm", mov: "mov", gif: "gif", "png-sequence": "zip" };

/** Whether a render of this format keeps the page's transparency when the composition leaves pixels unpainted. */
export function formatKeepsAlpha(format: Format): boolean {
  return format === "webm" || format === "mov" || format === "png-sequence";
}

const list = (values: readonly string[]) => values.join(", ");
const allowed = (values: readonly string[]) => ({
  error: (issue: { input?: unknown }) => `${JSON.stringify(issue.input)}; allowed values: ${list(values)}`,
});

const fpsRule = `give an integer from 1 to ${MAX_FPS} or a rational "num/den" such as "30000/1001"`;

/** fps as given, or an error: integers stay numbers, rationals stay "num/den" strings so ffmpeg gets them exactly. */
function normaliseFps(value: unknown): number | string | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return Number.isInteger(value) && value >= 1 && value <= MAX_FPS ? value : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return normaliseFps(Number(text));
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) return undefined;
  const num = Number(match[1]);
  const den = Number(match[2]);
  return den >= 1 && num / den >= 1 && num / den <= MAX_FPS ? `${num}/${den}` : undefined;
}

/** Bits per second of "10M", "2500k", "8000000" (HyperFrames' spelling), or null when it is not one. */
export function bitrateBits(text: string): number | null {
  const match = /^(\d{1,9})(\.\d{1,6})?([kKmMgG]?)$/.exec(text);
  if (!match) return null;
  const unit = { "": 1, k: 1e3, m: 1e6, g: 1e9 }[match[3]!.toLowerCase()]!;
  return Number(`${match[1]}${match[2] ?? ""}`) * unit;
}

const crfRule = `give an integer from 0 to ${CRF_MAX.mp4} for mp4 or to ${CRF_MAX.webm} for webm`;
const bitrateRule = `give bits per second such as "10M", "2500k" or "8000000", from ${VIDEO_BITRATE_RANGE.minText} to ${VIDEO_BITRATE_RANGE.maxText}`;
const gifLoopRule = `give an integer from 0 (loop forever) to ${GIF_LOOP_MAX}`;
/** A message naming the value given, then the rule. */
const given = (rule: string) => ({ error: (issue: { input?: unknown }) => `${JSON.stringify(issue.input)}; ${rule}` });

/** The rules that tie one option to another (crf and videoBitrate to the format, gifLoop to GIF), as zod issues. */
function checkOptionPairs(
  o: { format: Format; crf?: number | undefined; videoBitrate?: string | undefined; gifLoop?: number | undefined; from?: RangePoint | undefined; to?: RangePoint | undefined },
  ctx: z.RefinementCtx,
): void {
  const rateFormats = Object.keys(CRF_MAX).join(" and ");
  if (o.crf !== undefined && o.videoBitrate !== undefined) {
    ctx.addIssue({ code: "custom", path: ["videoBitrate"], message: "give either crf or videoBitrate, not both" });
  } else if (o.crf !== undefined || o.videoBitrate !== undefined) {
    const name = o.crf !== undefined ? "crf" : "videoBitrate";
    const max = CRF_MAX[o.format];
    if (max === undefined) {
      ctx.addIssue({ code: "custom", path: [name], message: `applies to ${rateFormats} only, not ${o.format}` });
    } else if (o.crf !== undefined && o.crf > max) {
      ctx.addIssue({ code: "custom", path: ["crf"], message: `${o.crf}; give an integer from 0 to ${max} for ${o.format}` });
    }
  }
  if (o.gifLoop !== undefined && o.format !== "gif") {
    ctx.addIssue({ code: "custom", path: ["gifLoop"], message: `applies to gif only, not ${o.format}` });
  }
  const order = rangeOrderProblem(o);
  if (order) ctx.addIssue({ code: "custom", path: ["to"], message: order });
}

/** from or to: seconds, or a frame number as "<n>f" (render-range.ts). */
const rangePoint = (end: string) =>
  z
    .union([z.number(), z.string()], { error: (i) => `${JSON.stringify(i.input)}; ${RANGE_POINT_RULE}` })
    .superRefine((value, ctx) => {
      const problem = rangePointProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .optional()
    .describe(
      `render only part of the composition, frames [from, to) of the full render at the same rate: ${end}; seconds as a number (2.5, rounded to the nearest frame) or a frame number as a string ("75f"), from and to in the same unit; its frames are the full render's same frames, its sound the same seconds of the full mix`,
    );

const compositionRule = 'give a project-relative .html file such as "compositions/intro.html"';

/**
 * The request body of POST /api/projects/:slug/render (also served in the OpenAPI document), built on first use
 * (core/lazy.ts): the Worker's startup does not pay for it, only its first render or batch request.
 */
export const renderOptionsSchema = lazy(() => {
  const shape = {
    quality: z.enum(QUALITIES, allowed(QUALITIES)).default("standard").describe("encoder quality preset"),
    fps: z
      .union([z.number(), z.string()], { error: (i) => `${JSON.stringify(i.input)}; ${fpsRule}` })
      .nullable()
      .optional()
      .transform((value, ctx) => {
        const fps = normaliseFps(value);
        if (fps === undefined) {
          ctx.addIssue({ code: "custom", message: `${JSON.stringify(value)}; ${fpsRule}` });
          return z.NEVER;
        }
        return fps;
      })
      .describe('frames per second: an integer, or "num/den" passed to ffmpeg exactly; default: the root\'s data-fps, else 30; a GIF: 15, or a lower data-fps'),
    format: z
      .enum(FORMATS, allowed(FORMATS))
      .default("mp4")
      .describe("mp4 (H.264), webm (VP9) or mov (ProRes), which keep the page's transparency where the composition paints nothing, gif, or png-sequence (a .zip of RGBA PNG frames, frame_000001.png on)"),
    composition: z
      .string({ error: (i) => `${JSON.stringify(i.input)}; ${compositionRule}` })
      .default("index.html")
      .transform((value, ctx) => {
        const check = checkProjectPath(value);
        if (!check.ok || check.isDirectory || !check.path.endsWith(".html")) {
          const problem = check.ok ? "" : ` (${check.error})`;
          ctx.addIssue({ code: "custom", message: `${JSON.stringify(value)}${problem}; ${compositionRule}` });
          return z.NEVER;
        }
        return check.path;
      })
      .describe("the project file to render instead of index.html"),
    resolution: z
      .enum(Object.keys(RESOLUTIONS) as [Resolution, ...Resolution[]], allowed(Object.keys(RESOLUTIONS)))
      .nullable()
      .default(null)
      .describe("output size preset; default: the composition's own data-width x data-height; a GIF: scaled down to 720 px wide, keeping the aspect"),
    strict: z.boolean(allowed(["true", "false"])).default(false).describe("fail the render on lint errors, on a blocked network attempt, on a timeline that never registers, on a script error in any composition file and on a sub-composition that did not mount"),
    wait: z.boolean(allowed(["true", "false"])).default(false).describe("hold the request until the render ends"),
    dryRun: z
      .boolean(allowed(["true", "false"]))
      .optional()
      .describe("answer 200 with the render's quote (frames, size, estimated node and wall seconds, queue place) and start, store and queue nothing"),
    force: z
      .boolean(allowed(["true", "false"]))
      .optional()
      .describe("true: render anew, skipping the render cache; default: when a done render of this project had the very same inputs (every project file by content, these options, the variables, the render engine), it is answered at once as a new done render with `reusedFrom`, its file a copy, no node used and no render-seconds charged"),
    webhookUrl: z
      .string()
      .max(2000, "at most 2000 characters")
      .regex(/^https?:\/\/[^\s]+$/i, "give an absolute http or https URL")
      .optional()
      .describe("called (signed, Standard Webhooks) when this render ends; overrides the project's webhook"),
    variables: z
      .preprocess(
        // Checked on the raw object: the record below would drop a "__proto__" key rather than refuse it.
        (value, ctx) => {
          const problem = value === undefined ? null : variablesShapeProblem(value);
          if (problem) ctx.addIssue({ code: "custom", message: problem });
          return problem ? {} : value;
        },
        z.record(z.string(), z.unknown()),
      )
      .optional()
      .describe(
        `values over the defaults the composition declares in data-composition-variables, keyed by id (as HyperFrames' --variables): window.__hyperframes.getVariables() returns them and each declared id's CSS custom property (--id) takes them; at most ${RENDER_VARIABLE_LIMITS.keys} keys, ${RENDER_VARIABLE_LIMITS.bytes} bytes as JSON, nested ${RENDER_VARIABLE_LIMITS.depth} levels`,
      ),
    strictVariables: z
      .boolean(allowed(["true", "false"]))
      .default(false)
      .describe("refuse the render (400) when a variables key is not declared by the composition or its value has the wrong type; otherwise each is a warning in the render log"),
    crf: z
      .number(given(crfRule))
      .int(given(crfRule))
      .min(0, given(crfRule))
      .max(Math.max(...Object.values(CRF_MAX)), given(crfRule))
      .optional()
      .describe(`encoder crf in place of the quality's (lower is better and larger): 0 to ${CRF_MAX.mp4} for mp4, 0 to ${CRF_MAX.webm} for webm; not with videoBitrate`),
    videoBitrate: z
      .string(given(bitrateRule))
      .refine((text) => {
        const bits = bitrateBits(text);
        return bits !== null && bits >= VIDEO_BITRATE_RANGE.min && bits <= VIDEO_BITRATE_RANGE.max;
      }, given(bitrateRule))
      .optional()
      .describe(`target video bitrate in place of the quality's crf, such as "10M" or "2500k" (${VIDEO_BITRATE_RANGE.minText} to ${VIDEO_BITRATE_RANGE.maxText}); mp4 and webm only; not with crf`),
    gifLoop: z
      .number(given(gifLoopRule))
      .int(given(gifLoopRule))
      .min(0, given(gifLoopRule))
      .max(GIF_LOOP_MAX, given(gifLoopRule))
      .optional()
      .describe(`how many times a GIF repeats: 0 (the default) loops forever, 1 to ${GIF_LOOP_MAX} that many more times; gif only`),
    from: rangePoint("the first frame; default the composition's start"),
    to: rangePoint("the frame after the last (exclusive); default the composition's end; past the end is a 400 when the root declares data-duration, else cut at the end with a finding"),
    metadata: z
      .preprocess(
        // Checked on the raw object, as variables are: the record below would assign a "__proto__" key, not keep it.
        (value, ctx) => {
          const problem = value === undefined ? null : jsonObjectProblem(value, RENDER_METADATA_LIMITS, 'a JSON object of your own, such as {"taskId":"t-42"}');
          if (problem) ctx.addIssue({ code: "custom", message: problem });
          return problem ? {} : value;
        },
        z.record(z.string(), jsonObjectValue()),
      )
      .optional()
      .describe(
        `your own JSON object (a task id, a customer, a trace), kept with the render and echoed as \`metadata\` in its state and in every webhook delivery (a batch's in each row's render too); never read by the studio; at most ${RENDER_METADATA_LIMITS.keys} keys, ${RENDER_METADATA_LIMITS.bytes} bytes as JSON, nested ${RENDER_METADATA_LIMITS.depth} levels`,
      ),
  };
  const names = Object.keys(shape).join(", ");
  return z
    .strictObject(shape, {
      error: (issue) => (issue.code === "unrecognized_keys" ? `unknown render option ${issue.keys[0]}; allowed options: ${names}` : "render options must be a JSON object"),
    })
    .superRefine(checkOptionPairs);
});

/**
 * What a render node is given of a render's options: everything that decides the frames and the file, not where the
 * webhook goes nor the caller's metadata (the node has no use for them, and holds nothing it does not need).
 */
export function nodeRenderOptions({ webhookUrl: _webhookUrl, metadata: _metadata, ...rendering }: RenderOptions): RenderOptions {
  return rendering;
}

export type OptionsResult = { ok: true; options: RenderOptions } | { ok: false; error: string };

export function parseRenderOptions(input: unknown): OptionsResult {
  const result = renderOptionsSchema().safeParse(input);
  if (result.success) return { ok: true, options: result.data };
  const issue = result.error.issues[0];
  const path = issue?.path.join(".") ?? "";
  const message = issue?.message ?? "invalid render options";
  return { ok: false, error: path ? `invalid ${path}: ${message}` : message };
}

/** `<slug>_<YYYY-MM-DD>_<HH-MM-SS>.<ext>` in UTC (ext from FORMAT_EXTENSIONS: a png-sequence is a .zip). */
export function renderFilename(slug: string, format: Format, at: Date): string {
  return timedFilename(slug, FORMAT_EXTENSIONS[format], at);
}

function timedFilename(slug: string, extension: string, at: Date): string {
  const iso = at.toISOString();
  return `${slug}_${iso.slice(0, 10)}_${iso.slice(11, 19).replace(/:/g, "-")}.${extension}`;
}

/** The same name one second later ("slug_2026-01-02_03-04-05.mp4" → "slug_2026-01-02_03-04-06.mp4"), for a render
 * that starts in the same second as another of the user's. A name not in this form gets the current time. */
export function nextRenderFilename(filename: string): string {
  const m = /^(.*)_(\d{4}-\d{2}-\d{2})_(\d{2})-(\d{2})-(\d{2})\.([a-z0-9]+)$/.exec(filename);
  if (!m) return filename;
  const at = Date.parse(`${m[2]}T${m[3]}:${m[4]}:${m[5]}Z`);
  return timedFilename(m[1]!, m[6]!, new Date(at + 1000));
}

/** How a render's options read in its log: "format mp4, quality standard, fps 30[, resolution …][, composition …][, N variables]". */
export function describeRenderOptions(o: RenderOptions): string {
  const parts = [`format ${o.format}`, `quality ${o.quality}`, `fps ${o.fps ?? 30}`];
  if (o.resolution) parts.push(`resolution ${o.resolution}`);
  if (o.composition !== "index.html") parts.push(`composition ${o.composition}`);
  const keys = o.variables ? Object.keys(o.variables).length : 0;
  if (keys > 0) parts.push(`${keys} variable${keys === 1 ? "" : "s"}${o.strictVariables ? " (strict)" : ""}`);
  if (o.crf !== undefined) parts.push(`crf ${o.crf}`);
  if (o.videoBitrate !== undefined) parts.push(`videoBitrate ${o.videoBitrate}`);
  if (o.gifLoop !== undefined) parts.push(`gifLoop ${o.gifLoop}`);
  if (o.from !== undefined || o.to !== undefined) parts.push(`from ${JSON.stringify(o.from ?? 0)} to ${o.to === undefined ? "the end" : JSON.stringify(o.to)}`);
  return parts.join(", ");
}

const FILENAME = /^([a-z0-9][a-z0-9-]*)_\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.(mp4|webm|mov|gif|zip)$/;
export function isRenderFilename(name: string): boolean {
  return FILENAME.test(name);
}
