// Where the served docs' Markdown (worker/docs/text/*.md) lives once built: in the Worker's static assets, which
// the dashboard build fills (dashboard/vite.config.ts), not in the Worker's script, which has a size budget
// (scripts/check-deploy.ts): the eight texts are about 47 KiB gzipped. The Worker reads them from there on first use
// (worker/docs/doc-text.ts) and fills them per request; the raw files are not served. Pure.

/** The assets folder holding `<name>.md`. */
export const DOC_TEXTS_PATH = "/_docs-text";

/** Each text by the name the Worker uses, and its file in worker/docs/text/. */
export const DOC_TEXT_FILES = {
  studio: "studio.md",
  render: "render.md",
  agentHttp: "agent-http.md",
  agents: "agents.md",
  security: "security.md",
  ideas: "ideas.md",
  skill: "skill.md",
  llms: "llms.md",
} as const;

export type DocTextName = keyof typeof DOC_TEXT_FILES;
