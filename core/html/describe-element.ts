// Findings point at elements with a short CSS selector an agent can search for in the file.
import { readAttribute, type HtmlElement } from "./parse-html.ts";

// Attributes that identify an element best, most specific first.
const IDENTIFYING_ATTRIBUTES = ["data-composition-id", "data-composition-src", "src", "href"] as const;

/** A selector such as `div#title`, `div[data-composition-id="intro"]` or `audio[src="assets/music.mp3"]`. */
export function describeElement(element: HtmlElement): string {
  const id = readAttribute(element, "id");
  if (id && /^[A-Za-z_][\w-]*$/.test(id)) return `${element.name}#${id}`;
  for (const name of IDENTIFYING_ATTRIBUTES) {
    const value = readAttribute(element, name);
    if (value !== null && value.length <= 120) return `${element.name}[${name}="${value.replace(/"/g, '\\"')}"]`;
  }
  return element.name;
}
