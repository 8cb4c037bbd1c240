// Assembles GET /api/docs: the studio and idea-board sections with the caller's token and both origins filled in.
import type { Linter } from "../checks/load-linter.ts";
import { docValues, type DocsOrigins } from "./doc-values.ts";
import { referenceTextOf, type DocTexts } from "./doc-text.ts";
import { fillDocs } from "./fill.ts";

const VISITOR_NOTE = " once you replace <TOKEN> with your token (sign in on the dashboard, or GET /api/me)";

export function renderDocs(options: DocsOrigins & { token: string | null }, linter: Linter, texts: DocTexts): string {
  const reader = options.token ? { token: options.token, tokenNote: " with your token" } : { token: "<TOKEN>", tokenNote: VISITOR_NOTE };
  return fillDocs(referenceTextOf(texts), docValues(options, reader, linter));
}
