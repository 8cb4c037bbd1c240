// The values of the docs' placeholders (fill.ts), from the tables they describe, so the text cannot drift from
// them: error codes, page and idempotency limits, composition limits, composition and lint rules.
import { COMPOSITION_LIMITS as LIMITS } from "../../core/composition/composition-limits.ts";
import { ERROR_CODES } from "../http/errors.ts";
import { IDEMPOTENCY_TTL_HOURS } from "../http/idempotency.ts";
import { PAGE_LIMIT_MAX } from "../http/query.ts";
import type { Linter } from "../checks/load-linter.ts";
import { compositionRulesList } from "./composition-rules.ts";
import type { DocValues } from "./fill.ts";
import { lintRulesSection } from "./lint-rules-section.ts";

export interface DocsOrigins {
  baseUrl: string;
  contentUrl: string;
  maxFileBytes: number;
}

/** Who reads the text: the token the examples carry and the sentence that says whether they run as printed. */
export interface DocsReader {
  token: string;
  tokenNote: string;
}

const grouped = (n: number) => n.toLocaleString("en-US");

export function docValues({ baseUrl, contentUrl, maxFileBytes }: DocsOrigins, { token, tokenNote }: DocsReader, linter: Linter): DocValues {
  return {
    BASE_URL: baseUrl,
    CONTENT_URL: contentUrl,
    TOKEN: token,
    TOKEN_NOTE: tokenNote,
    MAX_FILE_MB: String(Math.round(maxFileBytes / 1048576)),
    COMPOSITION_RULES: compositionRulesList(),
    LINT_RULES: lintRulesSection(linter),
    ERROR_CODES: Object.entries(ERROR_CODES)
      .map(([code, meaning]) => `  ${code}: ${meaning}`)
      .join("\n"),
    PAGE_LIMIT_MAX: String(PAGE_LIMIT_MAX),
    IDEMPOTENCY_TTL_HOURS: String(IDEMPOTENCY_TTL_HOURS),
    MAX_DURATION_SECONDS: String(LIMITS.maxDurationSeconds),
    MAX_FPS: String(LIMITS.maxFps),
    MAX_SIDE: String(LIMITS.maxSide),
    MAX_FRAMES: grouped(LIMITS.maxFrames),
    MAX_PIXELS: grouped(LIMITS.maxPixels),
  };
}
