// Assembles GET /api/docs: the studio and idea-board sections with the caller's token and both origins filled in.
import { agentHttpSection } from "./agent-http-section.ts";
import { agentsSection } from "./agents-section.ts";
import { compositionRulesList } from "./composition-rules.ts";
import { ideasSection } from "./ideas-section.ts";
import type { Linter } from "../lint/load-linter.ts";
import { lintRulesSection } from "./lint-rules-section.ts";
import { securitySection } from "./security-section.ts";
import { studioSection } from "./studio-section.ts";

export function renderDocs(options: { baseUrl: string; contentUrl: string; token: string | null; maxFileBytes: number }, linter: Linter): string {
  const text = [studioSection, agentHttpSection(), agentsSection, securitySection, ideasSection].join("\n\n");
  return text
    .replaceAll("{{TOKEN_NOTE}}", options.token ? " with your token" : " once you replace <TOKEN> with your token (sign in on the dashboard, or GET /api/me)")
    .replaceAll("{{BASE_URL}}", options.baseUrl)
    .replaceAll("{{CONTENT_URL}}", options.contentUrl)
    .replaceAll("{{TOKEN}}", options.token ?? "<TOKEN>")
    .replaceAll("{{MAX_FILE_MB}}", String(Math.round(options.maxFileBytes / 1048576)))
    .replaceAll("{{COMPOSITION_RULES}}", compositionRulesList())
    .replaceAll("{{LINT_RULES}}", lintRulesSection(linter));
}
