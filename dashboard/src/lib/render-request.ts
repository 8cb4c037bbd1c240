// The render form's fields and the request body they make (POST …/render, and the options a batch's rows share).
// Pure. The option names, formats and ranges come from core/render/render-options.ts, the one definition the API
// validates with; the form never judges a value itself: whatever is typed goes to the API and its 400 message is what
// the person reads (one set of rules, one set of words).
import { CRF_MAX, FORMATS, formatKeepsAlpha, GIF_LOOP_MAX, QUALITIES, RESOLUTIONS, VIDEO_BITRATE_RANGE, type Format } from "../../../core/render/render-options.ts";

export { FORMATS, QUALITIES };
export const RESOLUTION_NAMES = Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[];

/** How the encoder's size/quality is chosen: the quality preset's crf, a crf of one's own, or a target bitrate.
 * crf and videoBitrate exclude each other in the API, so the form offers one at a time. */
export type RateControl = "preset" | "crf" | "bitrate";

export interface FormOptions {
  quality: string;
  fps: string;
  format: Format;
  composition: string;
  resolution: string;
  strict: boolean;
  rate: RateControl;
  crf: string;
  videoBitrate: string;
  gifLoop: string;
}

export const DEFAULT_OPTIONS: FormOptions = {
  quality: "standard",
  fps: "",
  format: "mp4",
  composition: "index.html",
  resolution: "",
  strict: false,
  rate: "preset",
  crf: "",
  videoBitrate: "",
  gifLoop: "",
};

/** The largest crf of a format, or undefined for a format that takes neither crf nor videoBitrate. */
export function crfMax(format: Format): number | undefined {
  return CRF_MAX[format];
}

/** Whether the format takes crf / videoBitrate (mp4 and webm, as CRF_MAX says). */
export function takesRate(format: Format): boolean {
  return crfMax(format) !== undefined;
}

export const takesGifLoop = (format: Format): boolean => format === "gif";
export { formatKeepsAlpha, GIF_LOOP_MAX, VIDEO_BITRATE_RANGE };

/** A number when the text is one (so the API checks its range), else the text as typed (so the API names it). */
function numberOrText(text: string): number | string {
  const n = Number(text);
  return /^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(n) ? n : text;
}

/** The JSON body of POST …/render for these fields: only what applies to the chosen format is sent. */
export function requestBody(o: FormOptions): Record<string, unknown> {
  const body: Record<string, unknown> = { quality: o.quality, format: o.format, strict: o.strict };
  const fps = o.fps.trim();
  if (fps) body.fps = /^\d+$/.test(fps) ? Number(fps) : fps;
  if (o.composition && o.composition !== "index.html") body.composition = o.composition;
  if (o.resolution) body.resolution = o.resolution;
  if (takesRate(o.format)) {
    const crf = o.crf.trim();
    const bitrate = o.videoBitrate.trim();
    if (o.rate === "crf" && crf) body.crf = numberOrText(crf);
    if (o.rate === "bitrate" && bitrate) body.videoBitrate = bitrate;
  }
  const loop = o.gifLoop.trim();
  if (takesGifLoop(o.format) && loop) body.gifLoop = numberOrText(loop);
  return body;
}
