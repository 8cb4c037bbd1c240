// The agent skill (GET /skill.md) and /llms.txt (text/skill.md, text/llms.md), built from the same pieces as
// GET /api/docs: the composition rules, the starter composition, the linter (a worked fix shows the findings the
// linter really reports today) and whole sections of the reference, cut out by their headings. Nothing here restates
// what those sources say.
import { starterComposition } from "../../core/composition/starter.ts";
import { sectionOf } from "../../core/docs/sections.ts";
import type { Linter } from "../checks/load-linter.ts";
import { compositionRulesList } from "./composition-rules.ts";
import { studioTextOf, type DocTexts } from "./doc-text.ts";
import { docValues, type DocsOrigins } from "./doc-values.ts";
import { fillDocs } from "./fill.ts";

/** Sections of the reference the skill carries verbatim. */
export const SKILL_REFERENCE_SECTIONS = ["How a composition runs", "Lint", "Check", "Snapshots", "Render"] as const;

const EXAMPLE_ID = "hello-studio";

/** A composition with the mistakes agents make most: a timeline that plays by itself and a random number. */
const BROKEN_EXAMPLE = starterComposition({ compositionId: EXAMPLE_ID, title: "Hello, Studio", duration: 4 })
  .replace("gsap.timeline({ paused: true })", "gsap.timeline()")
  .replace("const tl =", "const drift = Math.random() * 100;\n  const tl =");

function brokenFindings({ lintProject }: Linter): string {
  const result = lintProject({ files: [{ path: "index.html", size: BROKEN_EXAMPLE.length, text: BROKEN_EXAMPLE }] });
  return result.findings
    .filter((f) => f.severity === "error")
    .map((f) => `- ${f.code} (${f.severity}): ${f.message}${f.fixHint ? ` Fix: ${f.fixHint}` : ""}`)
    .join("\n");
}

export function buildSkill(options: DocsOrigins, linter: Linter, texts: DocTexts): string {
  const values = docValues(options, { token: "$STUDIO_TOKEN", tokenNote: "" }, linter);
  const section = (text: string, heading: string, title = heading) => `## ${title}\n\n${fillDocs(sectionOf(text, heading), values)}`;
  const sections = [
    ...["MCP server", "Webhooks"].map((h) => section(texts.agents, h)),
    ...SKILL_REFERENCE_SECTIONS.map((h) => section(studioTextOf(texts), h, `Reference: ${h}`)),
  ];
  const starter = starterComposition({ compositionId: EXAMPLE_ID, title: "Hello, Studio", duration: 4 });
  return fillDocs(texts.skill, {
    ...values,
    EXAMPLE_ID,
    STARTER: starter.trimEnd(),
    BROKEN_FINDINGS: brokenFindings(linter),
    SKILL_SECTIONS: sections.join("\n\n"),
  });
}

export function buildLlmsTxt(baseUrl: string, texts: DocTexts): string {
  return fillDocs(texts.llms, { BASE_URL: baseUrl, COMPOSITION_RULES: compositionRulesList() });
}
