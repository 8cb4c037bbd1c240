// Variables, as HyperFrames has them: declared defaults (data-composition-variables, a JSON array of {id, default})
// under the mounting host's data-variable-values (a JSON object); each string or number value is also a CSS custom
// property on the host (--title).
import { page, type Hyperframes } from "./page-globals.ts";

export type Variables = Record<string, unknown>;

export function parseJson(text: string | null, wantArray: true): unknown[];
export function parseJson(text: string | null, wantArray: false): Variables;
export function parseJson(text: string | null, wantArray: boolean): unknown[] | Variables {
  if (!text) return wantArray ? [] : {};
  try {
    const value: unknown = JSON.parse(text);
    if (wantArray) return Array.isArray(value) ? value : [];
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Variables) : {};
  } catch {
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

export function exposeAsCss(host: HTMLElement, values: Variables): void {
  for (const key in values) {
    const v = values[key];
    if ((typeof v === "string" && v !== "") || typeof v === "number") {
      if (!host.style.getPropertyValue(cssVarName(key))) host.style.setProperty(cssVarName(key), String(v));
    }
  }
}

/** window.__hyperframes with getVariables for the root document (a page's own __hyperframes is kept). */
export function installHyperframes(): Hyperframes {
  const base: Hyperframes = page.__hyperframes || {};
  if (typeof base.getVariables !== "function") {
    base.getVariables = () => {
      const holders = Array.prototype.slice.call(document.querySelectorAll("[data-composition-variables]")) as Element[];
      if (document.documentElement.hasAttribute("data-composition-variables") && holders.indexOf(document.documentElement) < 0) holders.unshift(document.documentElement);
      return declaredDefaults(holders);
    };
  }
  page.__hyperframes = base;
  return base;
}
