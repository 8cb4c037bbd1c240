// A clip's data-start, as HyperFrames 0.8.170 reads it (its parsers' start expression; read from its dist): a
// number of seconds, or the id of another clip, optionally plus or minus seconds, meaning "where that clip ends,
// moved by the offset" ("intro", "intro + 2", "intro+2", "intro - 0.5"). Ids are letters, digits and _ . : -, so
// "intro-2" (no spaces) names a clip called intro-2, while "intro - 2" is intro's end minus 2 s. The media in-point
// (data-playback-start, else data-media-start) is read here too. Pure: the page runtime and lint share it.

export type StartExpression =
  | { kind: "absolute"; value: number }
  /** Starts `offset` seconds after the clip `refId` ends (a negative offset: before). */
  | { kind: "reference"; refId: string; offset: number };

/** What a data-start says: nothing (absent or blank), something unreadable, or an expression. */
export type ClipStart = { kind: "none" } | { kind: "invalid"; raw: string } | StartExpression;

const REFERENCE_ID = /^[A-Za-z0-9_.:-]+$/;
// An id, a sign, then a plain decimal magnitude ("2", "0.5", ".5"): no exponent, no sign of its own.
const REFERENCE_WITH_OFFSET = /^(.*?)\s*([+-])\s*(\d*\.?\d+)$/;

/** A finite number from the whole text (as JavaScript's Number reads it), or null. */
function strictNumber(text: string): number | null {
  if (text.trim() === "") return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

export function parseClipStart(raw: string | null): ClipStart {
  const text = (raw ?? "").trim();
  if (text === "") return { kind: "none" };
  const value = strictNumber(text);
  if (value !== null) return { kind: "absolute", value };
  if (REFERENCE_ID.test(text)) return { kind: "reference", refId: text, offset: 0 };
  const match = REFERENCE_WITH_OFFSET.exec(text);
  if (match && REFERENCE_ID.test(match[1]!)) {
    const magnitude = Number(match[3]);
    if (Number.isFinite(magnitude)) return { kind: "reference", refId: match[1]!, offset: match[2] === "-" ? -magnitude : magnitude };
  }
  return { kind: "invalid", raw: text };
}

/** The start a reference resolves to: the referenced clip's start plus its length plus the offset, never below 0. */
export function referencedStart(refStart: number, refLength: number | null, offset: number): number {
  return Math.max(0, refStart + (refLength ?? 0) + offset);
}

export interface StartProblem {
  /** The clip whose data-start cannot be resolved. */
  id: string | null;
  kind: "invalid" | "unknown-reference" | "cycle";
  /** The data-start text as written. */
  raw: string;
  /** For a cycle, the ids around it, starting and ending with the first. */
  path?: string[];
}

/** Why a data-start could not be resolved, as one sentence (the lint message and the runtime finding say the same). */
export function describeStartProblem(problem: StartProblem): string {
  const who = problem.id ? `#${problem.id}` : "A clip";
  if (problem.kind === "invalid") {
    return `${who} has data-start="${problem.raw}", which is neither seconds nor a clip id with an optional + or - offset ("intro", "intro + 2").`;
  }
  if (problem.kind === "unknown-reference") {
    return `${who} has data-start="${problem.raw}", but no element has that id (nor that data-composition-id), so its start cannot be resolved.`;
  }
  return `${who} has data-start="${problem.raw}", which refers back to itself through ${problem.path!.map((id) => `#${id}`).join(" → ")}, so no start can be resolved.`;
}

/**
 * The problems among clips' starts, statically: `clips` are the timed elements in document order (their id, if
 * any, and data-start text), `known` says whether an id names any element. Each clip with an unreadable start or an
 * unknown reference is reported; each cycle once, from its first clip in document order.
 */
export function findStartProblems(clips: { id: string | null; raw: string }[], known: (id: string) => boolean): StartProblem[] {
  const problems: StartProblem[] = [];
  const starts = new Map<string, string>();
  for (const { id, raw } of clips) {
    if (id !== null && !starts.has(id)) starts.set(id, raw);
    const parsed = parseClipStart(raw);
    if (parsed.kind === "invalid") problems.push({ id, kind: "invalid", raw: parsed.raw });
    else if (parsed.kind === "reference" && !known(parsed.refId)) problems.push({ id, kind: "unknown-reference", raw: raw.trim() });
  }
  const inCycle = new Set<string>();
  for (const id of starts.keys()) {
    if (inCycle.has(id)) continue;
    const path = [id];
    let next = referenceOf(starts.get(id));
    while (next !== null && starts.has(next) && !path.includes(next)) {
      path.push(next);
      next = referenceOf(starts.get(next));
    }
    if (next !== id) continue;
    for (const member of path) inCycle.add(member);
    problems.push({ id, kind: "cycle", raw: starts.get(id)!.trim(), path: [...path, id] });
  }
  return problems;
}

function referenceOf(raw: string | undefined): string | null {
  const parsed = parseClipStart(raw ?? null);
  return parsed.kind === "reference" ? parsed.refId : null;
}

/** Seconds into the source a media clip starts playing: data-playback-start, else data-media-start; negatives ignored. */
export function readMediaOffset(attr: (name: string) => string | null): number {
  for (const name of ["data-playback-start", "data-media-start"]) {
    const value = strictNumber(attr(name) ?? "");
    if (value !== null && value >= 0) return value;
  }
  return 0;
}
