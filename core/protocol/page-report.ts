// The page → node contract: zod schemas of everything a render node reads back from a composition's page
// (window.__studio's info(), findings(), volumeAutomation() and seekFrame() answers, the shader transitions a page
// declares, the font families it fell back on, its backgrounds, and check's timeline facts and layout). A
// composition is a hostile program: its scripts can replace what the runtime answers (prototype tricks reach past
// the frozen window.__studio), so the node trusts nothing it reads until it parsed it here. Numbers are finite and
// in range, indices integers, lists and strings bounded; read-page-report.ts turns what does not parse into a
// finding naming the field. page-runtime/api.ts derives its types from these schemas, so the contract is declared
// once. Pure; no Node built-ins, no Worker or DOM globals.
import * as z from "zod";
import { MAX_GAIN } from "../composition/audio-gain.ts";
import { MAX_TREATMENT_CHARS } from "../composition/audio-fx-chain.ts";
import { COMPOSITION_LIMITS } from "../composition/composition-limits.ts";
import { MAX_PLAYBACK_RATE, MIN_PLAYBACK_RATE } from "../composition/playback-rate.ts";
import { FindingSchema } from "./finding-schema.ts";
import { FINDING_LIMITS, FINDING_SEVERITY } from "./finding.ts";

/** How much a page may report: list counts and string lengths past these are refused or cut (with a finding). */
export const PAGE_REPORT_LIMITS = {
  /**
   * Seconds either side of 0 a clip may start, last or skip: a hundred times the longest composition, far past
   * anything a render shows, and small enough that every number the node formats for ffmpeg stays plain decimal.
   */
  seconds: 100 * COMPOSITION_LIMITS.maxDurationSeconds,
  /** As many clips as a render plan carries (render-plan.ts). */
  audio: 1000,
  videos: 200,
  timelines: 1000,
  findings: 1000,
  /** A composition id, a timeline's key, a scene's element id. */
  idLength: 200,
  urlLength: 4096,
  fpsTextLength: 32,
  /** A seekFrame answer says why a frame may differ, in a few words. */
  seekAnswerLength: 500,
  fontFamilies: 500,
  familyLength: 300,
  transitions: 200,
  colourLength: 100,
  /** Gain samples per clip: the node asks for at most 20,000 over all clips (sample-volume-automation.ts). */
  volumeSamples: 25_000,
  layoutElements: 20_000,
  treatmentLength: MAX_TREATMENT_CHARS,
} as const;

const L = PAGE_REPORT_LIMITS;

/** Composition seconds (zod's numbers are finite: NaN and ±Infinity never parse). */
export const SecondsSchema = z.number().min(-L.seconds).max(L.seconds);
/** A length or offset in seconds. */
export const LengthSchema = z.number().min(0).max(L.seconds);
const noControl = /^[^\u0000-\u001f\u007f]*$/;
/** An identifier a page names (composition id, timeline key, scene id): bounded, no control characters. */
export const PageIdSchema = z.string().min(1).max(L.idLength).regex(noControl, "has control characters");

/** Whether `text` is an absolute URL whose path the node can decode (projectPathOf, missing-asset). */
function isDecodableUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  try {
    decodeURIComponent(new URL(text).pathname);
    return true;
  } catch (error) {
    // "%zz" or a broken UTF-8 sequence: the answer is no; anything else is a bug to see.
    if (error instanceof URIError) return false;
    throw error;
  }
}

/** A media URL as the page resolved it; whether it is a project file is the node's to decide (projectPathOf). */
export const PageUrlSchema = z.string().max(L.urlLength).refine(isDecodableUrl, "is not an absolute URL");

/** data-fps as written: a whole or decimal number, or a ratio of whole numbers ("24", "29.97", "30000/1001"). */
export const FPS_TEXT = /^\s*\d{1,9}(?:\.\d{1,9})?(?:\s*\/\s*\d{1,9})?\s*$/;
export const FpsTextSchema = z.string().max(L.fpsTextLength).regex(FPS_TEXT, "is not a frame rate (24, 29.97 or 30000/1001)");

const PlaybackRateSchema = z.number().min(MIN_PLAYBACK_RATE).max(MAX_PLAYBACK_RATE);

/** A sound on the timeline (an <audio>, or a <video> with sound) as info() lists it. */
export const MediaClipSchema = z.object({
  kind: z.enum(["audio", "video"]),
  /** Absolute URL as the page resolved it. */
  src: PageUrlSchema,
  /** Start on the root timeline, seconds. */
  start: SecondsSchema,
  /**
   * Seconds on screen / audible, or null for "until the end"; below 0 where a timed ancestor ends before the clip
   * starts (clip-clock.ts' mediaWindow): never heard.
   */
  duration: SecondsSchema.nullable(),
  /** Seconds into the source it starts (data-playback-start, else data-media-start). */
  mediaStart: LengthSchema,
  /** Source seconds per timeline second (data-playback-rate, 0.1–10; core/composition/playback-rate.ts). */
  playbackRate: PlaybackRateSchema,
  /** data-volume as the mixer applies it: 0 up to +12 dB (core/composition/audio-gain.ts). */
  volume: z.number().min(0).max(MAX_GAIN),
  /** Linear fades at the clip's edges (data-fade-in, data-fade-out), seconds; 0 for none. */
  fadeIn: LengthSchema,
  fadeOut: LengthSchema,
  /** data-fx-chain and data-automation as written (core/composition/audio-fx-chain.ts, audio-automation.ts). */
  fxChain: z.string().max(L.treatmentLength).optional(),
  automation: z.string().max(L.treatmentLength).optional(),
});

/** A <video> as info() lists it; `index` is its place in the list (read-page-report.ts holds it to that). */
export const VideoClipSchema = z.object({
  index: z.number().int().min(0).max(L.videos - 1),
  src: PageUrlSchema.nullable(),
  start: SecondsSchema,
  /** As a sound's: below 0 when never shown. */
  duration: SecondsSchema.nullable(),
  mediaStart: LengthSchema,
  /** Source seconds per timeline second (data-playback-rate). */
  playbackRate: PlaybackRateSchema,
  /** The element has `loop`: it plays its file (from its in-point) over and over for as long as it is shown. */
  loop: z.boolean(),
  /** data-automation as written: a speed ramp (its rate lane) replaces playbackRate (core/composition/speed-ramp.ts). */
  automation: z.string().max(L.treatmentLength).optional(),
});

/** A finding the page raised: the shared shape, with the severity its code has in the one table. */
export const PageFindingSchema = FindingSchema.refine((f) => f.severity === FINDING_SEVERITY[f.code], {
  message: "has a severity its code does not have",
  path: ["severity"],
});

/**
 * The root's facts: without a valid one the composition cannot be sized or timed, so the whole report is refused.
 * Width and height are only positive here: their maxima are refuse-oversized-composition.ts's, which names them.
 */
export const CompositionHeadSchema = z.object({
  compositionId: PageIdSchema,
  width: z.number().positive(),
  height: z.number().positive(),
  /** 0 or below (no data-duration, no timeline) is the node's "has no duration" error, as before. */
  duration: SecondsSchema,
  /** The root's data-fps as written, or null. */
  fps: FpsTextSchema.nullable(),
});

/** What the runtime reports about a loaded composition (window.__studio.info()). */
export const CompositionInfoSchema = CompositionHeadSchema.extend({
  timelines: z.array(PageIdSchema).max(L.timelines),
  /** What went wrong while mounting: script errors and sub-compositions that did not mount, each naming its file. */
  findings: z.array(PageFindingSchema).max(L.findings),
  audio: z.array(MediaClipSchema).max(L.audio),
  videos: z.array(VideoClipSchema).max(L.videos),
});

/** One gain sample of volumeAutomation(): composition time and the gain then. */
export const VolumeSampleSchema = z.object({ time: SecondsSchema, volume: z.number().min(0).max(MAX_GAIN) });
/** One list of samples per info().audio entry. */
export const VolumeAutomationSchema = z.array(z.array(VolumeSampleSchema).max(L.volumeSamples)).max(L.audio);

/** seekFrame's answer: why the frame may differ from the one before, or null when it cannot. */
export const SeekAnswerSchema = z.string().max(L.seekAnswerLength).nullable();

/** A shader transition as the page's HyperShader records it (core/composition/hyper-shader-page-script.ts). */
export const PageShaderTransitionSchema = z.object({
  time: LengthSchema,
  duration: LengthSchema,
  shader: z.string().max(L.idLength).nullable(),
  fromScene: PageIdSchema,
  toScene: PageIdSchema,
});
export const PageShaderTransitionsHeadSchema = z.object({
  bgColor: z.string().max(L.colourLength).regex(noControl, "has control characters"),
  accentColor: z.string().max(L.colourLength).nullable(),
});

/** A font family the page draws text in and could not load. */
export const FontFamilySchema = z.string().min(1).max(L.familyLength);

/** What the page paints behind its content (page-background.ts). */
export const PageBackgroundsSchema = z.object({ rootOpaque: z.boolean(), bare: z.boolean() });

/** Check: each composition's declared duration and its timeline's (check-composition.ts). */
export const TimelineFactsSchema = z.object({
  id: z.string().max(L.idLength),
  file: z.string().max(FINDING_LIMITS.file),
  declared: z.number().nullable(),
  timeline: z.number().nullable(),
});

const BoxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

/** Check: one element measured in the page (collect-layout.ts; core/browser/analyze-layout.ts's MeasuredElement). */
export const MeasuredElementSchema = z.object({
  id: z.number().int().min(0),
  ancestors: z.array(z.number().int().min(0)).max(L.layoutElements),
  selector: z.string().max(FINDING_LIMITS.selector),
  file: z.string().max(FINDING_LIMITS.file),
  box: BoxSchema,
  textBox: BoxSchema.nullable(),
  overflowX: z.number(),
  overflowY: z.number(),
  clipsX: z.boolean(),
  clipsY: z.boolean(),
  clippedByAncestor: z.boolean(),
  ancestorClip: z.object({ px: z.number(), by: z.string().max(FINDING_LIMITS.selector) }).nullable().optional(),
});

export type MediaClip = z.infer<typeof MediaClipSchema>;
export type VideoClip = z.infer<typeof VideoClipSchema>;
export type CompositionInfo = z.infer<typeof CompositionInfoSchema>;
export type VolumeSample = z.infer<typeof VolumeSampleSchema>;
export type PageShaderTransition = z.infer<typeof PageShaderTransitionSchema>;
export type TimelineFacts = z.infer<typeof TimelineFactsSchema>;
