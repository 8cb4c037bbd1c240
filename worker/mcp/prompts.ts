// The prompts: compose_video teaches an agent to make a video the studio renders cleanly. Its text is the same
// text /skill.md, /llms.txt and GET /api/docs serve (the composition rules section of the agents' docs, filled
// with the rules of composition-rules.ts) and the loop the server's instructions give (MCP_LOOP), so it cannot
// drift from them.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import * as z from "zod";
import { projectSlug } from "../../core/paths/identifiers.ts";
import { sectionOf } from "../../core/docs/sections.ts";
import { compositionRulesList } from "../docs/composition-rules.ts";
import type { DocTexts } from "../docs/doc-text.ts";
import { fillDocs } from "../docs/fill.ts";
import { MCP_LOOP } from "./instructions.ts";

/** The composition rules as the docs print them (with the sentence on the starter composition). */
export function composeVideoGuide(texts: DocTexts): string {
  const rules = fillDocs(sectionOf(texts.agents, "Composition rules"), { COMPOSITION_RULES: compositionRulesList() });
  return `## Composition rules\n\n${rules}\n\n## The loop\n\n${MCP_LOOP}\n\nLint, check and snapshot show what a render would get wrong, in seconds: fix every lint error and every check error, look at the snapshots, and only then render.`;
}

/** `texts` is asked for only when the prompt is: most MCP requests never read the docs. */
export function registerPrompts(server: McpServer, texts: () => Promise<DocTexts>): void {
  server.registerPrompt(
    "compose_video",
    {
      title: "Compose a video",
      description: "Make a video the studio renders cleanly: the composition rules and the create, write, lint, check, snapshot, render loop with its tools.",
      argsSchema: {
        brief: z.string().max(4000).optional().describe("what the video should show"),
        slug: projectSlug.optional().describe("the project to work in (created if it does not exist)"),
      },
    },
    async ({ brief, slug }) => {
      const task = [brief ? `Make this video with Studio: ${brief}` : "Make a video with Studio.", slug ? `Work in project ${slug} (create_project if list_projects does not show it).` : ""]
        .filter(Boolean)
        .join(" ");
      return {
        description: "Compose a video with Studio",
        messages: [{ role: "user", content: { type: "text", text: `${task}\n\n${composeVideoGuide(await texts())}` } }],
      };
    },
  );
}
