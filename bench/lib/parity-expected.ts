// A documented difference between HyperFrames and ours that a parity case expects (its parity.json `expected`): a
// check where the two renderers are known to measure different figures, with the reason (which side is right and
// why). The check then passes only while each side still measures its recorded figure: if HyperFrames fixes its
// side, or ours changes, the check fails and the entry has to be looked at again. It never widens a goal: a figure
// outside its recorded value fails whichever way it moved. Pure.
import type { Check } from "./parity-compare.ts";

export interface ExpectedDifference {
  /** The check's name as the harness prints it, e.g. "audio mean level". */
  check: string;
  /** The figure HyperFrames measures (the unit of the check: dB for a level, seconds for an onset). */
  hyperframes: number;
  /** The figure ours measures. */
  ours: number;
  /** How far each side's measured figure may be from its recorded one: run-to-run noise, not the difference. */
  within: number;
  /** Why the two differ, which side is right, and where that was verified. */
  reason: string;
}

/** At most this much noise is allowed around a recorded figure (the level goals are 0.5 dB and 1 dB). */
export const MAX_WITHIN = 0.5;
/** A reason says what and why, not "known". */
const MIN_REASON = 40;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const KEYS = ["check", "hyperframes", "ours", "within", "reason"];

/** The `expected` entries of a parity.json, checked: a wrong shape fails the case rather than excuse a check. */
export function parseExpected(raw: unknown, source: string): ExpectedDifference[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length === 0) throw new Error(`${source}: expected is a list of differences, each {${KEYS.join(", ")}}`);
  const seen = new Set<string>();
  return raw.map((entry, k) => {
    const at = `${source}: expected[${k}]`;
    if (!isRecord(entry)) throw new Error(`${at} is not an object`);
    const unknown = Object.keys(entry).filter((key) => !KEYS.includes(key));
    if (unknown.length) throw new Error(`${at}: unknown key ${unknown.join(", ")} (${KEYS.join(", ")})`);
    const { check, hyperframes, ours, within, reason } = entry;
    if (typeof check !== "string" || !check) throw new Error(`${at}: check names one of the harness's checks`);
    if (seen.has(check)) throw new Error(`${at}: ${check} is expected twice`);
    seen.add(check);
    for (const [name, value] of [["hyperframes", hyperframes], ["ours", ours]] as const) {
      if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`${at}: ${name} is the figure that side measures (a number)`);
    }
    if (typeof within !== "number" || !(within > 0) || within > MAX_WITHIN) throw new Error(`${at}: within is a tolerance above 0 and at most ${MAX_WITHIN}`);
    if (typeof reason !== "string" || reason.trim().length < MIN_REASON) throw new Error(`${at}: reason says why the two differ and which side is right (${MIN_REASON} characters at least)`);
    return { check, hyperframes: hyperframes as number, ours: ours as number, within, reason: reason.trim() };
  });
}

const f2 = (n: number) => n.toFixed(2);

/**
 * The checks with each expected difference applied: a check an entry names passes while both measured figures stay
 * within `within` of the recorded ones, and fails (saying which side moved) otherwise. An entry naming no check of
 * the render, or a check without a figure of each side, is a failing check of its own.
 */
export function applyExpected(checks: readonly Check[], expected: readonly ExpectedDifference[]): Check[] {
  const out = checks.map((check) => {
    const entry = expected.find((e) => e.check === check.name);
    if (!entry) return check;
    if (!check.figures) return { ...check, pass: false, expected: true, detail: `${check.detail}; an expected difference needs a figure of each side, and this check has none` };
    const { reference, candidate } = check.figures;
    const moved = [
      Math.abs(reference - entry.hyperframes) > entry.within ? `HyperFrames measured ${f2(reference)}, recorded ${f2(entry.hyperframes)}` : "",
      Math.abs(candidate - entry.ours) > entry.within ? `ours measured ${f2(candidate)}, recorded ${f2(entry.ours)}` : "",
    ].filter(Boolean);
    const recorded = `expected difference (${f2(entry.hyperframes)} vs ${f2(entry.ours)} ±${entry.within})`;
    return moved.length === 0
      ? { ...check, pass: true, expected: true, detail: `${check.detail}; ${recorded}: ${entry.reason}` }
      : { ...check, pass: false, expected: true, detail: `${check.detail}; ${recorded} no longer holds: ${moved.join("; ")}. Look again at the reason: ${entry.reason}` };
  });
  for (const entry of expected) {
    if (!checks.some((c) => c.name === entry.check)) {
      out.push({ name: `expected ${entry.check}`, pass: false, detail: `parity.json expects a difference in "${entry.check}", which this render has no check of` });
    }
  }
  return out;
}
