// Reads window.__studio.info()'s answer (page-report.ts) field by field. The root's id, width, height and duration
// refuse the whole report (value null: the caller fails the render naming the field); every other field is read
// on its own and what does not parse is left out with a problem (read-page-report.ts). Pure.
import * as z from "zod";
import {
  CompositionHeadSchema, FpsTextSchema, MediaClipSchema, PAGE_REPORT_LIMITS as L, PageFindingSchema, PageIdSchema, VideoClipSchema,
  type CompositionInfo,
} from "./page-report.ts";
import { describeValue, problemOf, readList, readValue, type PageProblem, type PageRead } from "./read-page-report.ts";

const FIELD = "info()";

/** The page's account of its composition, or null (with the problems) when it cannot be rendered from it. */
export function readCompositionInfo(raw: unknown): PageRead<CompositionInfo | null> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return { value: null, problems: [{ field: FIELD, problem: `is not an object (got ${describeValue(raw)})`, outcome: "the composition cannot be rendered from it" }] };
  }
  const record = raw as Record<string, unknown>;
  const problems: PageProblem[] = [];
  const refused = "the composition cannot be rendered from it";
  for (const key of ["compositionId", "width", "height", "duration"] as const) {
    const parsed = CompositionHeadSchema.shape[key].safeParse(record[key]);
    if (!parsed.success) problems.push(problemOf(parsed.error, record[key], `${FIELD}.${key}`, refused));
  }
  const fps = readValue(FpsTextSchema.nullable(), record["fps"], `${FIELD}.fps`, null, "data-fps is not read: the render's own rate applies");
  const timelines = readList(PageIdSchema, record["timelines"], `${FIELD}.timelines`, L.timelines, "that timeline is not counted as registered");
  const findings = readList(PageFindingSchema, record["findings"], `${FIELD}.findings`, L.findings, "that finding is left out");
  const audio = readList(MediaClipSchema, record["audio"], `${FIELD}.audio`, L.audio, "that sound is left out of the mix");
  // A video's index names its frames' folder and its place in the runtime's lists: only its own position will do.
  const videos = readList(VideoClipSchema, record["videos"], `${FIELD}.videos`, L.videos, "that video is left out (it stays blank)", (video, i) =>
    video.index === i ? null : `has index ${video.index} at position ${i}`,
  );
  problems.push(...fps.problems, ...timelines.problems, ...findings.problems, ...audio.problems, ...videos.problems);
  const head = CompositionHeadSchema.omit({ fps: true }).safeParse(record);
  if (!head.success) return { value: null, problems };
  return {
    value: { ...head.data, fps: fps.value, timelines: timelines.value, findings: findings.value, audio: audio.value, videos: videos.value },
    problems,
  };
}

/** window.__studio.findings()'s answer: each finding that does not parse is left out with a problem. */
export function readPageFindings(raw: unknown, field = "findings()"): PageRead<z.infer<typeof PageFindingSchema>[]> {
  return readList(PageFindingSchema, raw, field, L.findings, "that finding is left out");
}
