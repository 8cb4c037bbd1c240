// The agent skill (GET /skill.md) and /llms.txt, built from the same pieces as GET /api/docs: the composition
// rules, the starter composition, the linter (a worked fix shows the findings the linter really reports today) and
// whole sections of the reference, cut out by their headings. Nothing here restates what those sources say.
import { starterComposition } from "../../core/composition/starter.ts";
import { agentsSection } from "./agents-section.ts";
import { compositionRulesList } from "./composition-rules.ts";
import type { Linter } from "../lint/load-linter.ts";
import { lintRulesSection } from "./lint-rules-section.ts";
import { studioSection } from "./studio-section.ts";

/** The body of a "## <heading>" section of `text`, up to the next "## " or "# " heading. */
export function sectionOf(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs section "${heading}" is missing`);
  const body = text.slice(start + heading.length + 5);
  const end = body.search(/\n#{1,2} /);
  return (end < 0 ? body : body.slice(0, end)).trim();
}

/** Sections of the reference the skill carries verbatim. */
export const SKILL_REFERENCE_SECTIONS = ["How a composition runs", "Lint", "Check", "Snapshots", "Render"] as const;

const EXAMPLE_ID = "hello-studio";

/** A composition with the mistakes agents make most: a timeline that plays by itself and a random number. */
const BROKEN_EXAMPLE = starterComposition({ compositionId: EXAMPLE_ID, title: "Hello, Studio", duration: 4 })
  .replace("gsap.timeline({ paused: true })", "gsap.timeline()")
  .replace("const tl =", "const drift = Math.random() * 100;\n  const tl =");

export interface SkillOptions {
  baseUrl: string;
  contentUrl: string;
  maxFileBytes: number;
}

function fill(text: string, { baseUrl, contentUrl, maxFileBytes }: SkillOptions, linter: Linter): string {
  return text
    .replaceAll("{{BASE_URL}}", baseUrl)
    .replaceAll("{{TOKEN}}", "$STUDIO_TOKEN")
    .replaceAll("{{COMPOSITION_RULES}}", compositionRulesList())
    .replaceAll("{{LINT_RULES}}", lintRulesSection(linter))
    .replaceAll("{{MAX_FILE_MB}}", String(Math.round(maxFileBytes / 1048576)))
    .replaceAll("{{CONTENT_URL}}", contentUrl)
    .replaceAll("{{TOKEN_NOTE}}", "");
}

function brokenFindings({ lintProject }: Linter): string {
  const result = lintProject({ files: [{ path: "index.html", size: BROKEN_EXAMPLE.length, text: BROKEN_EXAMPLE }] });
  return result.findings
    .filter((f) => f.severity === "error")
    .map((f) => `- ${f.code} (${f.severity}): ${f.message}${f.fixHint ? ` Fix: ${f.fixHint}` : ""}`)
    .join("\n");
}

export function buildSkill(options: SkillOptions, linter: Linter): string {
  const { baseUrl } = options;
  const starter = starterComposition({ compositionId: EXAMPLE_ID, title: "Hello, Studio", duration: 4 });
  const mcpAndWebhooks = ["MCP server", "Webhooks"].map((h) => `## ${h}\n\n${sectionOf(`\n${agentsSection}`, h)}`).join("\n\n");
  const reference = SKILL_REFERENCE_SECTIONS.map((h) => `## Reference: ${h}\n\n${sectionOf(studioSection, h)}`).join("\n\n");
  return fill(
    `---
name: studio-video
description: Make videos with Studio (${baseUrl}) - write HTML compositions animated with GSAP timelines, lint, check, snapshot and render them through the Studio API or its MCP server, then fix and repeat.
---

# Making videos with Studio

Studio renders HTML compositions to video: it seeks a paused GSAP timeline frame by frame in headless Chromium
and encodes the frames with ffmpeg. You work through its HTTP API (or the MCP server at ${baseUrl}/mcp, which has a
tool for each step). Get a token on the dashboard (${baseUrl}/) and keep it in STUDIO_TOKEN:

    export STUDIO_TOKEN=stu_...
    curl -H "Authorization: Bearer $STUDIO_TOKEN" ${baseUrl}/api/me

An MCP client that connects through OAuth (Claude, ChatGPT, editors) needs no token: give it ${baseUrl}/mcp, and the
person approves it in the browser, choosing what it may do (see "Connecting through OAuth" below).

Full reference: ${baseUrl}/api/docs. OpenAPI: ${baseUrl}/api/openapi.json.

## The loop

1. Make: create a project (MCP create_project). Without html you get a starter composition to copy from.

       curl -X POST ${baseUrl}/api/projects -H "Authorization: Bearer $STUDIO_TOKEN" \\
            -H "Content-Type: application/json" -d '{"name":"${EXAMPLE_ID}","duration":4}'

2. Write index.html, sub-compositions and assets (write_file).

       curl -X PUT ${baseUrl}/api/projects/${EXAMPLE_ID}/files/index.html \\
            -H "Authorization: Bearer $STUDIO_TOKEN" --data-binary @index.html

3. Lint (lint): fast, no browser. Fix every error; warnings are usually acceptable.

       curl -X POST ${baseUrl}/api/projects/${EXAMPLE_ID}/lint -H "Authorization: Bearer $STUDIO_TOKEN"

4. Check (check): the composition in a real browser, with layout inspection (clipped, overflowing, off-canvas and
   overlapping text, missing assets, script errors).

       curl -X POST ${baseUrl}/api/projects/${EXAMPLE_ID}/check -H "Authorization: Bearer $STUDIO_TOKEN"

5. Snapshot (snapshot): look at PNG frames before spending a render.

       curl -X POST ${baseUrl}/api/projects/${EXAMPLE_ID}/snapshot -H "Authorization: Bearer $STUDIO_TOKEN" \\
            -H "Content-Type: application/json" -d '{"frames":4}'

6. Render (render, then get_render): a draft first, then the quality you need.

       curl -X POST "${baseUrl}/api/projects/${EXAMPLE_ID}/render?wait=1" -H "Authorization: Bearer $STUDIO_TOKEN" \\
            -H "Content-Type: application/json" -d '{"quality":"draft"}'
       curl -OJ -H "Authorization: Bearer $STUDIO_TOKEN" "${baseUrl}/renders/<filename>?download"

7. Fix what lint, check, the snapshots or the render log show, and go round again.

## Composition rules

{{COMPOSITION_RULES}}

## Worked example: a composition that follows every rule

This is the starter composition (${EXAMPLE_ID}, 4 seconds). It lints with no findings and passes the browser check.

\`\`\`html
${starter.trimEnd()}
\`\`\`

## Worked example: fixing lint errors

The same composition with a timeline that is not paused and a random number:

\`\`\`js
const drift = Math.random() * 100;
const tl = gsap.timeline();
\`\`\`

Lint reports these errors (exactly as the linter words them):

${brokenFindings(linter)}

The fix: create the timeline with gsap.timeline({ paused: true }), and replace Math.random with a fixed value (or
a seeded generator written in the composition). Lint again until there are no errors.

## Lint rules

{{LINT_RULES}}

${mcpAndWebhooks}

${reference}
`,
    options,
    linter,
  );
}

export function buildLlmsTxt(baseUrl: string): string {
  return `# Studio

> A hosted video studio for AI agents: write HTML compositions animated with GSAP timelines, then lint, check,
> snapshot and render them to mp4, webm, mov or gif through a token-protected HTTP API or an MCP server.

Compositions follow these rules:

${compositionRulesList()}

The loop: make (create a project, write files) -> lint -> check -> snapshot -> render -> fix and repeat.

## Docs

- [Agent skill](${baseUrl}/skill.md): the whole loop with the composition rules, worked examples and the lint rules
- [API reference](${baseUrl}/api/docs): every endpoint, option, limit and error, as plain text
- [OpenAPI 3.1](${baseUrl}/api/openapi.json): the machine-readable contract

## Tools

- [MCP server](${baseUrl}/mcp): Streamable HTTP, stateless; tools with structured results, project files as
  resources, a compose_video prompt. Connect with your personal token as \`Authorization: Bearer <token>\`, or
  through OAuth 2.1 (clients discover it from the 401: ${baseUrl}/.well-known/oauth-protected-resource/mcp; the
  person approves on a consent page); see "MCP server" in the skill
- Command line: \`node cli/studio.ts\` in the repository (login, create, push, lint, render, download)

## Optional

- [Idea board](${baseUrl}/api/ideas): ideas for the studio; bots post with their own keys
`;
}
