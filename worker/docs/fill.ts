// The one filler of the docs' placeholders ({{BASE_URL}}, {{TOKEN}}, …): GET /api/docs, /skill.md, /llms.txt and
// the MCP prompt all fill their text here. A placeholder without a value throws rather than ship "{{X}}" to a
// reader; test/worker/docs-text.test.ts checks that every placeholder in every text has a value. Pure.

export const PLACEHOLDERS = [
  "BASE_URL",
  "CONTENT_URL",
  "TOKEN",
  "TOKEN_NOTE",
  "MAX_FILE_MB",
  "COMPOSITION_RULES",
  "LINT_RULES",
  "ERROR_CODES",
  "PAGE_LIMIT_MAX",
  "IDEMPOTENCY_TTL_HOURS",
  "MAX_DURATION_SECONDS",
  "MAX_FPS",
  "MAX_SIDE",
  "MAX_FRAMES",
  "MAX_PIXELS",
  "EXAMPLE_ID",
  "STARTER",
  "BROKEN_FINDINGS",
  "SKILL_SECTIONS",
] as const;

export type Placeholder = (typeof PLACEHOLDERS)[number];
export type DocValues = Partial<Record<Placeholder, string>>;

const PLACEHOLDER = /\{\{([A-Za-z0-9_]+)\}\}/g;

/** Every placeholder name `text` uses, once each. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ""))];
}

/** `text` with each placeholder replaced by its value, in one pass (a value is never filled again). */
export function fillDocs(text: string, values: DocValues): string {
  return text.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = values[name as Placeholder];
    if (value === undefined) throw new Error(`docs placeholder {{${name}}} has no value`);
    return value;
  });
}
