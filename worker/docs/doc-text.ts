// The prose of the served docs: Markdown files in text/, bundled as strings by wrangler's Text rule (see [[rules]]
// in wrangler.toml). Their {{PLACEHOLDERS}} are filled by fill.ts with the values of doc-values.ts.
import agentHttp from "./text/agent-http.md";
import agents from "./text/agents.md";
import ideas from "./text/ideas.md";
import llms from "./text/llms.md";
import render from "./text/render.md";
import security from "./text/security.md";
import skill from "./text/skill.md";
import studio from "./text/studio.md";

/** Every text, by name (the placeholder test reads them all). */
export const DOC_TEXTS = { studio, render, agentHttp, agents, security, ideas, skill, llms } as const;

/** The studio reference: conventions to render nodes (studio.md, then render.md). */
export const studioText = `${studio}\n${render}`;

/** GET /api/docs before filling: the studio reference, HTTP behaviour, agents, security, the idea board. */
export const referenceText = [studioText, agentHttp, agents, security, ideas].join("\n\n");
