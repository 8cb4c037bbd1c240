// The largest composition the studio renders: canvas, frame rate, length and frame count of a composition's root.
// Render nodes are shared, and a page's size is its author's to choose: without these a data-width="100000"
// data-height="100000" would make every browser on a node allocate gigabytes per frame. The one home of these
// checks: the linter reports a root over one as an error, the Worker refuses to queue a render, snapshot, check or
// preview of it, and a render node refuses such a job before it starts a browser. The numbers live in
// composition-limits.ts (re-exported here); this file reads them from a page's HTML.
import { readAttribute, type HtmlElement, parseHtml } from "../html/parse-html.ts";
import { COMPOSITION_LIMITS, countLimitFrames, DEFAULT_COUNTING_FPS } from "./composition-limits.ts";
import { findRootElement } from "./find-root-element.ts";

export { COMPOSITION_LIMITS, countLimitFrames, DEFAULT_COUNTING_FPS };

/** What a root declares, as numbers (null when absent or not a number), with the attribute text for messages. */
export interface RootSize {
  width: number | null;
  height: number | null;
  /** Seconds. */
  duration: number | null;
  /** data-fps as a rate ("30000/1001" is 29.97…). */
  fps: number | null;
  /** How each attribute was written; a value without one (the runtime's) is named by its number. */
  texts: Partial<Record<"width" | "height" | "duration" | "fps", string>>;
}

export type LimitAttribute = "data-width" | "data-height" | "data-fps" | "data-duration";

export interface LimitProblem {
  /** The attribute to change (the canvas area names data-width; frames name data-duration). */
  attribute: LimitAttribute;
  message: string;
}

/**
 * The largest number an attribute value can be read as: the page runtime's Number(value) ("1e5", "0x186A0") and the
 * linter's "1920px"/"6s". Null when neither reads a finite number. The largest, so no spelling slips past a limit.
 */
export function readLimitNumber(text: string | null): number | null {
  if (text === null) return null;
  const readings = [Number(text), Number(text.trim().replace(/(?:px|s)$/i, ""))].filter(Number.isFinite);
  return readings.length ? Math.max(...readings) : null;
}

/** data-fps as a rate: "24", "30000/1001"; null when it is neither. */
export function readFpsRate(text: string | null): number | null {
  if (text === null) return null;
  const ratio = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (ratio) return Number(ratio[2]) > 0 ? Number(ratio[1]) / Number(ratio[2]) : null;
  return readLimitNumber(text);
}

/** The sizes a root element declares. */
export function readRootSize(root: HtmlElement): RootSize {
  const texts: RootSize["texts"] = {};
  const read = (key: keyof RootSize["texts"], name: string) => {
    const text = readAttribute(root, name);
    if (text !== null) texts[key] = text;
    return text;
  };
  return {
    width: readLimitNumber(read("width", "data-width")),
    height: readLimitNumber(read("height", "data-height")),
    duration: readLimitNumber(read("duration", "data-duration")),
    fps: readFpsRate(read("fps", "data-fps")),
    texts,
  };
}

/** The sizes of a composition file's root, or null when it has none. */
export function readCompositionSize(html: string): RootSize | null {
  const root = findRootElement(parseHtml(html));
  return root ? readRootSize(root) : null;
}


const grouped = (n: number) => n.toLocaleString("en-US");

/**
 * Every maximum the root passes, each naming the attribute, its value and the maximum. Frames are counted at
 * `rate` (the rate a render would use; default the root's own data-fps when within limits, else 30).
 */
export function findLimitProblems(size: RootSize, rate?: { fps: number; source: string }): LimitProblem[] {
  const { maxSide, maxPixels, maxFps, maxDurationSeconds, maxFrames } = COMPOSITION_LIMITS;
  const named = (attribute: LimitAttribute, key: keyof RootSize["texts"], value: number) =>
    size.texts[key] !== undefined ? `${attribute}="${size.texts[key]}"` : `${attribute} ${value}`;
  const problems: LimitProblem[] = [];
  for (const [attribute, key] of [["data-width", "width"], ["data-height", "height"]] as const) {
    const value = size[key];
    if (value !== null && value > maxSide) {
      problems.push({ attribute, message: `${named(attribute, key, value)} is over the maximum of ${maxSide} pixels per side` });
    }
  }
  const { width, height } = size;
  if (problems.length === 0 && width !== null && height !== null && width > 0 && height > 0 && width * height > maxPixels) {
    problems.push({
      attribute: "data-width",
      message: `${named("data-width", "width", width)} x ${named("data-height", "height", height)} is ${grouped(width * height)} pixels, over the maximum of ${grouped(maxPixels)} (4096x2160)`,
    });
  }
  if (size.fps !== null && size.fps > maxFps) {
    problems.push({ attribute: "data-fps", message: `${named("data-fps", "fps", size.fps)} is over the maximum of ${maxFps} fps` });
  }
  const { duration } = size;
  if (duration !== null && duration > maxDurationSeconds) {
    problems.push({ attribute: "data-duration", message: `${named("data-duration", "duration", duration)} is over the maximum of ${maxDurationSeconds} s` });
  }
  const counting = rate ?? { fps: size.fps !== null && size.fps >= 1 && size.fps <= maxFps ? size.fps : DEFAULT_COUNTING_FPS, source: "" };
  // An over-long duration is named once, as itself, not again as frames.
  if (duration !== null && duration > 0 && duration <= maxDurationSeconds && Number.isFinite(counting.fps)) {
    const frames = countLimitFrames(duration, counting.fps);
    if (frames > maxFrames) {
      const at = `${Number(counting.fps.toFixed(3))} fps${counting.source ? ` (${counting.source})` : ""}`;
      problems.push({ attribute: "data-duration", message: `${named("data-duration", "duration", duration)} at ${at} is ${grouped(frames)} frames, over the maximum of ${grouped(maxFrames)} frames` });
    }
  }
  return problems;
}

/** One sentence for a refusal, every problem joined: "index.html is over the studio's limits: data-width=…". */
export function describeLimitProblems(file: string, problems: readonly LimitProblem[]): string {
  return `${file} is over the studio's limits: ${problems.map((p) => p.message).join("; ")}`;
}
