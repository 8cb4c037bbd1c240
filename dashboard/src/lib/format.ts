// Display helpers: sizes, durations, dates. Pure.
import { describeBytes } from "../../../core/units/bytes.ts";

/** A size in the binary units the API's messages use ("800 KiB", "1.5 GiB"); "–" for no size. */
export function formatBytes(bytes: number): string {
  return Number.isFinite(bytes) && bytes >= 0 ? describeBytes(bytes) : "–";
}

/** "4 s", "2 min 05 s", "1 h 02 min". */
export function formatEta(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "–";
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}

export function formatDate(value: string | number | undefined | null): string {
  if (value === undefined || value === null || value === "") return "–";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

export function formatCount(n: number | undefined): string {
  return typeof n === "number" && Number.isFinite(n) ? n.toLocaleString() : "–";
}

/** Text files the dashboard can edit in place. */
export function isTextPath(path: string): boolean {
  return /\.(html?|css|js|mjs|json|txt|md|svg|xml|csv|vtt|srt)$/i.test(path);
}

export function isImagePath(path: string): boolean {
  return /\.(png|jpe?g|gif|webp|avif|svg)$/i.test(path);
}

/** "1 comment", "2 comments", "0 comments"; `many` for irregular plurals. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
