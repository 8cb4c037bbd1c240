// Variables, as HyperFrames has them: declared defaults (data-composition-variables, a JSON array of {id, default})
// under the mounting host's data-variable-values (a JSON object); each string or number value is also a CSS custom
// property on the host (--title). A render's `variables` (window.__hfVariables, set by the node before any script)
// sit over the defaults in the root's getVariables() and in the lowercased CSS property of every id a composition
// declares; a sub-composition's own getVariables() keeps its defaults and host values, as HyperFrames renders it.
// Once the scripts have run, own-variables.ts sets each composition's own values under the id as written, which
// wins where the two names are the same (an all-lowercase id).
import { page, type Hyperframes } from "./page-globals.ts";
import { logIgnored } from "./log-ignored.ts";

export type Variables = Record<string, unknown>;

export function parseJson(text: string | null, wantArray: true): unknown[];
export function parseJson(text: string | null, wantArray: false): Variables;
export function parseJson(text: string | null, wantArray: boolean): unknown[] | Variables {
  if (!text) return wantArray ? [] : {};
  try {
    const value: unknown = JSON.parse(text);
    if (wantArray) return Array.isArray(value) ? value : [];
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Variables) : {};
  } catch (error) {
    // Not JSON: no values, as for an attribute that is not there (the node's check reports the declaration).
    logIgnored("variables that are not JSON are read as none", error);
    return wantArray ? [] : {};
  }
}

export function declaredDefaults(elements: Element[]): Variables {
  const out: Variables = {};
  elements.forEach((el) => {
    parseJson(el.getAttribute("data-composition-variables"), true).forEach((d) => {
      const declared = d as { id?: unknown; default?: unknown } | null;
      if (declared && typeof declared === "object" && typeof declared.id === "string" && "default" in declared) out[declared.id] = declared.default;
    });
  });
  return out;
}

function cssVarName(id: string): string {
  const name = String(id).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return "--" + (name || "node");
}

/** The render's variables (window.__hfVariables), or none. */
export function renderOverrides(): Variables {
  const raw = (page as { __hfVariables?: unknown }).__hfVariables;
  return raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Variables) : {};
}

function cssValue(v: unknown): string | null {
  return (typeof v === "string" && v !== "") || typeof v === "number" ? String(v) : null;
}

/**
 * Each value as a CSS custom property on `host`, unless the host already sets it; then the render's value of every
 * id among `values` (a declared or host-given id), which always wins.
 */
export function exposeAsCss(host: HTMLElement, values: Variables): void {
  const overrides = renderOverrides();
  for (const key in values) {
    const v = Object.prototype.hasOwnProperty.call(overrides, key) ? cssValue(overrides[key]) : null;
    if (v !== null) host.style.setProperty(cssVarName(key), v);
    else if (cssValue(values[key]) !== null && !host.style.getPropertyValue(cssVarName(key))) host.style.setProperty(cssVarName(key), cssValue(values[key])!);
  }
}

/**
 * The root document's declarers (<html> and any element with data-composition-variables): each declared id's CSS
 * property, its default unless the page's own CSS defines it, the render's value over it. Run once the page's
 * styles are in (prepare), before sub-compositions mount.
 */
export function exposeRootVariables(): void {
  const overrides = renderOverrides();
  const holders = Array.prototype.slice.call(document.querySelectorAll("[data-composition-variables]")) as HTMLElement[];
  // What the page's CSS defines is read for every holder before any is set: custom properties inherit, so a value
  // set on <html> would otherwise read as the page's own on a nested declarer.
  const authored = holders.map((el) => getComputedStyle(el));
  const settings: [HTMLElement, string, string][] = [];
  holders.forEach((el, i) => {
    const declared = declaredDefaults([el]);
    for (const key in declared) {
      const name = cssVarName(key);
      const given = Object.prototype.hasOwnProperty.call(overrides, key) ? cssValue(overrides[key]) : null;
      if (given !== null) settings.push([el, name, given]);
      else if (cssValue(declared[key]) !== null && !authored[i]!.getPropertyValue(name).trim()) settings.push([el, name, cssValue(declared[key])!]);
    }
  });
  settings.forEach(([el, name, value]) => el.style.setProperty(name, value));
}

/** window.__hyperframes with getVariables for the root document (a page's own __hyperframes is kept). */
export function installHyperframes(): Hyperframes {
  const base: Hyperframes = page.__hyperframes || {};
  if (typeof base.getVariables !== "function") {
    base.getVariables = () => {
      const holders = Array.prototype.slice.call(document.querySelectorAll("[data-composition-variables]")) as Element[];
      if (document.documentElement.hasAttribute("data-composition-variables") && holders.indexOf(document.documentElement) < 0) holders.unshift(document.documentElement);
      return Object.assign(declaredDefaults(holders), renderOverrides());
    };
  }
  page.__hyperframes = base;
  return base;
}
