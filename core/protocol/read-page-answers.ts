// Reads the page's other answers (page-report.ts): volume automation, seekFrame, shader transitions, fonts that fell
// back, backgrounds, and check's timeline facts and layout. What does not parse is left out with a problem naming
// the field (read-page-report.ts); nothing here refuses a whole render. Pure.
import * as z from "zod";
import type { PageShaderTransitions } from "../composition/hyper-shader-page-script.ts";
import {
  FontFamilySchema, MeasuredElementSchema, PAGE_REPORT_LIMITS as L, PageBackgroundsSchema, PageShaderTransitionSchema,
  PageShaderTransitionsHeadSchema, SeekAnswerSchema, TimelineFactsSchema, VolumeSampleSchema,
  type TimelineFacts, type VolumeSample,
} from "./page-report.ts";
import { describeValue, readList, readValue, type PageProblem, type PageRead } from "./read-page-report.ts";

/**
 * volumeAutomation()'s answer: one list per sound (`clips` of them). A list that is not one, or holds a sample that
 * does not parse, is left out whole (that sound keeps its data-volume): a gain curve with holes would be a new curve.
 */
export function readVolumeAutomation(raw: unknown, clips: number): PageRead<VolumeSample[][]> {
  const field = "volumeAutomation()";
  const outcome = "that sound keeps its data-volume";
  if (!Array.isArray(raw) || raw.length !== clips) {
    const got = Array.isArray(raw) ? `${raw.length} lists` : describeValue(raw);
    return { value: Array.from({ length: clips }, () => []), problems: [{ field, problem: `is not one list per sound (${clips}; got ${got})`, outcome: "every sound keeps its data-volume" }] };
  }
  const problems: PageProblem[] = [];
  const value = raw.map((list: unknown, i) => {
    const read = readValue(z.array(VolumeSampleSchema).max(L.volumeSamples), list, `${field}[${i}]`, [], outcome);
    problems.push(...read.problems);
    return read.value;
  });
  return { value, problems };
}

/** The seekFrame answer that stands for "the page did not say": the frame is captured, never reused. */
export const UNREADABLE_SEEK_ANSWER = "the page's answer was not readable";

/**
 * seekFrame()'s answer, checked on every frame (a typeof and a length, no zod): a string or null as the runtime
 * gives; anything else, or a string past the bound, reads as a change (the frame is captured) with a problem.
 */
export function readSeekAnswer(raw: unknown, time: number): PageRead<string | null> {
  if (raw === null || (typeof raw === "string" && raw.length <= L.seekAnswerLength)) return { value: raw, problems: [] };
  const parsed = SeekAnswerSchema.safeParse(raw);
  const problem = parsed.success ? "is invalid" : (parsed.error.issues[0]?.message ?? "is invalid");
  return {
    value: UNREADABLE_SEEK_ANSWER,
    problems: [{ field: `seekFrame(${time.toFixed(3)})`, problem: `${problem} (got ${describeValue(raw)})`, outcome: "that frame is captured, not reused" }],
  };
}

/**
 * window.__studioShaderTransitions: null when the page declared none. Its colours refuse the declaration (no
 * transition is blended); each transition that does not parse is left out (its scenes switch without a blend).
 */
export function readShaderDeclaration(raw: unknown): PageRead<PageShaderTransitions | null> {
  const field = "__studioShaderTransitions";
  if (raw === null || raw === undefined) return { value: null, problems: [] };
  const head = readValue(PageShaderTransitionsHeadSchema.nullable(), raw, field, null, "no shader transition is blended");
  if (head.value === null) return { value: null, problems: head.problems };
  const list = readList(PageShaderTransitionSchema, (raw as Record<string, unknown>)["transitions"], `${field}.transitions`, L.transitions, "that transition switches its scenes without a blend");
  return { value: { ...head.value, transitions: list.value }, problems: list.problems };
}

/** The font families the page says fell back; each that does not parse is left out. */
export function readFontFallbacks(raw: unknown): PageRead<string[]> {
  return readList(FontFamilySchema, raw, "fontFallbacks", L.fontFamilies, "that family is not reported as fallen back");
}

/** The page's backgrounds: unreadable reads as "paints something, not opaque" (alpha kept, backgrounds kept). */
export function readPageBackgrounds(raw: unknown): PageRead<z.infer<typeof PageBackgroundsSchema>> {
  return readValue(PageBackgroundsSchema, raw, "pageBackgrounds", { rootOpaque: false, bare: false }, "read as not opaque and not bare (alpha and backgrounds kept)");
}

/** Check's timeline facts; each that does not parse is left out (that composition's timeline is not judged). */
export function readTimelineFacts(raw: unknown): PageRead<TimelineFacts[]> {
  return readList(TimelineFactsSchema, raw, "timelineFacts", L.timelines, "that composition's timeline is not checked");
}

/** Check's layout measurements; each that does not parse is left out (that element is not inspected). */
export function readLayout(raw: unknown, at: number): PageRead<z.infer<typeof MeasuredElementSchema>[]> {
  return readList(MeasuredElementSchema, raw, `layout(${at})`, L.layoutElements, "that element is not inspected");
}
