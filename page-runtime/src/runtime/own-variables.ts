// Each composition's own variables as CSS custom properties named by the id exactly as written (--accent,
// --subColor), as HyperFrames 0.8.170's runtime sets them once the compositions' scripts have run: on the stage and
// every [data-composition-id] element, the values of the composition it belongs to. A sub-composition's are its
// declared defaults under its host's data-variable-values, never the render's variables (those belong to the root
// composition), so `var(--accent)` inside a card that declares `accent` shows the card's own value. Set after the
// lowercased properties of variables.ts, so where both names are the same this one wins, as in HyperFrames.
import type { Hyperframes } from "./page-globals.ts";
import type { Variables } from "./variables.ts";

/** HyperFrames' rule: strings, numbers and booleans as written, an object by its `name`; nothing else. */
function ownCssValue(v: unknown): string | null {
  let text: string | null = null;
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") text = String(v);
  else if (v && typeof v === "object" && typeof (v as { name?: unknown }).name === "string" && (v as { name: string }).name) text = (v as { name: string }).name;
  // Characters that could end the declaration or the style attribute are dropped (a value is the page author's or
  // the render caller's text).
  return text === null ? null : text.replace(/[;{}<>\r\n]/g, "");
}

/** The element HyperFrames calls the stage: [data-hf-root], else #stage, else the body's first element. */
function stage(): HTMLElement | null {
  return (document.querySelector("[data-hf-root]") || document.getElementById("stage") || (document.body && document.body.firstElementChild) || document.body) as HTMLElement | null;
}

/**
 * `byComposition` maps a mounted sub-composition's runtime id to its own variables; any other composition (the root,
 * or an id no mount has) takes the root's getVariables(), the render's values over the declared defaults.
 */
export function exposeOwnVariables(byComposition: Record<string, Variables>, hyperframes: Hyperframes): void {
  const targets = new Set<HTMLElement>();
  const first = stage();
  if (first) targets.add(first);
  document.querySelectorAll<HTMLElement>("[data-composition-id]").forEach((el) => targets.add(el));
  const rootValues = hyperframes.getVariables ? hyperframes.getVariables() : {};
  targets.forEach((el) => {
    const owner = el.closest("[data-composition-id]");
    const id = owner ? (owner.getAttribute("data-composition-id") || "").trim() : "";
    const values = id && Object.prototype.hasOwnProperty.call(byComposition, id) ? byComposition[id]! : rootValues;
    for (const key in values) {
      const value = ownCssValue(values[key]);
      if (value !== null && el.style) el.style.setProperty("--" + key, value);
    }
  });
}
