// The composition rules in one place: the API reference (GET /api/docs), the MCP tool descriptions, /llms.txt and
// the agent skill all print these lines, so what an agent is taught cannot drift between them.
import { GSAP_CDN_URL } from "../../core/composition/match-gsap-url.ts";

export const COMPOSITION_RULES: readonly string[] = [
  "index.html is the composition: a 1920x1080 canvas (html, body { width: 1920px; height: 1080px; overflow: hidden; }).",
  'The root element carries data-composition-id="<id>", data-start="0", data-duration="<seconds>", data-width="1920", data-height="1080".',
  `GSAP 3.14.2 is loaded from the CDN: <script src="${GSAP_CDN_URL}"></script>.`,
  'Timelines are created paused (gsap.timeline({ paused: true })) and registered on window.__timelines["<id>"]; the renderer seeks them frame by frame.',
  "Output must be deterministic: no Math.random, Date.now, setTimeout, setInterval or fetch.",
  'CSS is scoped under [data-composition-id="<id>"].',
  "Web fonts are linked with an explicit display= value (Inter, Roboto, Montserrat and other bundled families need no link).",
  "Clips (timed elements) carry data-start and data-duration in seconds and data-track-index; outside its window a clip is hidden.",
  'Audio: <audio src="assets/<file>" data-start data-duration data-track-index="2">. Video elements must be muted.',
  'Sub-composition: a div with data-composition-id, data-composition-src="compositions/<file>.html", data-start, data-duration, data-track-index="1", data-width="1920", data-height="1080".',
  "Lint errors must be fixed before rendering; warnings are usually acceptable.",
];

/** The rules as a Markdown (or plain-text) bullet list. */
export function compositionRulesList(): string {
  return COMPOSITION_RULES.map((rule) => `- ${rule}`).join("\n");
}
