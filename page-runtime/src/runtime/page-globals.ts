// The page's window as the runtime sees it: the globals it owns and the ones compositions set. Kept out of the
// DOM's global Window type so nothing outside the runtime sees them.
import type { PlayerApi, StudioApi } from "../../api.ts";

/** A GSAP timeline as far as the runtime drives it. */
export interface Timeline {
  pause(): unknown;
  seek(time: number, suppressEvents?: boolean): unknown;
  duration(): number;
  [method: string]: unknown;
}

export type TimelineRegistry = Record<string, Timeline | undefined>;

/** `window.__hyperframes`: what HyperFrames gives a composition (getVariables), plus whatever a page put there. */
export interface Hyperframes {
  getVariables?: () => Record<string, unknown>;
  [key: string]: unknown;
}

export type ScopedBody = (this: Window, document: Document, gsap: unknown, window: Window, hyperframes: Hyperframes) => void;

export interface PageWindow {
  __studio?: StudioApi;
  __studioPlayer?: PlayerApi;
  __studioRunScoped?: (index: number, body: ScopedBody) => void;
  __timelines?: TimelineRegistry;
  __hyperframes?: Hyperframes;
  gsap?: Record<string, unknown> & { timeline(...args: unknown[]): Timeline };
}

export const page = window as unknown as Window & PageWindow;

/**
 * Sets one of the runtime's own globals frozen, non-writable and non-configurable, so a composition script can
 * neither replace it, wrap its methods nor redefine it (Object.defineProperty on window throws). The second layer:
 * the render node still parses every answer (core/protocol/page-report.ts), since a script can reach the runtime's
 * answers through built-ins it uses (prototypes, Math, JSON) all the same. Runs before any composition script.
 */
export function defineFrozenGlobal<K extends "__studio" | "__studioPlayer" | "__studioRunScoped">(name: K, value: NonNullable<PageWindow[K]>): void {
  Object.defineProperty(window, name, { value: Object.freeze(value), writable: false, configurable: false, enumerable: false });
}

/** Numbers as the old runtime read attributes: empty or missing is the fallback, so is anything not finite. */
export function num(value: string | null | undefined, fallback: number): number {
  if (value === null || value === undefined || value === "") return fallback;
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
}

export function errorText(error: unknown): string {
  if (error && typeof error === "object" && "message" in error) {
    const named = error as { name?: string; message: unknown };
    return (named.name || "Error") + ": " + String(named.message);
  }
  return String(error);
}

/** `[data-composition-id="<id>"]`, quoted for a selector. */
export function attrSelector(id: string): string {
  return '[data-composition-id="' + String(id).replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"]';
}
