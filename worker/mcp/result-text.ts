// The short text of a tool result: what a person (or a model that reads only text) needs at a glance, next to the
// structured content that carries everything. Pure functions of the REST bodies.
import type { RenderOrNone } from "../../core/protocol/render-state.ts";

export interface Finding {
  code: string;
  severity: string;
  message: string;
  file?: string;
  fixHint?: string;
}

/** Findings listed one per line, errors first; at most `max`, then how many more. */
export function findingLines(findings: readonly Finding[], max = 20): string {
  const order = ["error", "warning", "info"];
  const sorted = [...findings].sort((a, b) => order.indexOf(a.severity) - order.indexOf(b.severity));
  const lines = sorted
    .slice(0, max)
    .map((f) => `- ${f.severity} ${f.code}${f.file ? ` (${f.file})` : ""}: ${f.message}${f.fixHint ? ` Fix: ${f.fixHint}` : ""}`);
  if (sorted.length > max) lines.push(`- … ${sorted.length - max} more in the structured result`);
  return lines.join("\n");
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "2 errors, 1 warning" (infos only when there are some). */
export function countsText(counts: { errorCount: number; warningCount: number; infoCount?: number }): string {
  const parts = [plural(counts.errorCount, "error"), plural(counts.warningCount, "warning")];
  if (counts.infoCount) parts.push(`${counts.infoCount} info`);
  return parts.join(", ");
}

/** The cursor sentence of a paged list. */
export function nextText(next: unknown): string {
  return typeof next === "string" ? ` More: pass next="${next}".` : "";
}

/** A render as the render tools read it (core/protocol/render-state.ts). */
export type RenderSummary = RenderOrNone;

/** What a done render reused from an earlier render of the same composition (incremental re-render), or nothing. */
function carriedText(state: RenderSummary): string {
  if (state.carriedFrom === undefined) return "";
  return ` It carried ${state.carriedSegments ?? 0} unchanged segment${state.carriedSegments === 1 ? "" : "s"} (${state.carriedFrames ?? 0} frames) from render ${state.carriedFrom}.`;
}

/** One render's state in a sentence, with its download link (`download`: the absolute one) when done. */
export function renderText(slug: string, state: RenderSummary, download = state.downloadUrl): string {
  if (state.status === "none") return `Project ${slug} has never rendered.`;
  const name = `Render ${state.id ?? ""} of ${slug}`.replace("  ", " ");
  if (state.status === "done") {
    const done = `${name} is done: ${download ?? "its file was deleted"}${state.size ? ` (${state.size} bytes)` : ""}.${carriedText(state)}`;
    // The render cache answered it: say so, and how to render anew (its log carries the original's findings).
    return state.reusedFrom ? `${done} Reused from render ${state.reusedFrom}, done with the very same inputs: no node rendered it (its log shows that render's; force: true renders anew).` : done;
  }
  if (state.status === "failed") return `${name} failed: ${state.error ?? state.lastLine ?? "see its log"}.`;
  if (state.status === "cancelled") return `${name} was cancelled.`;
  const percent = state.progress?.percent;
  return `${name} is ${state.status}${percent === undefined ? "" : ` (${percent}%)`}${state.lastLine ? `: ${state.lastLine}` : ""}.`;
}
