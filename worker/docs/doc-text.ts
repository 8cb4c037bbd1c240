// The prose of the served docs: Markdown files in text/, which the dashboard build copies into the Worker's static
// assets (core/docs/doc-text-files.ts says why there and not in the script). Read from there once per isolate, all
// eight at once, on the first request that serves docs; their {{PLACEHOLDERS}} are filled per request by fill.ts with
// the values of doc-values.ts.
import { DOC_TEXT_FILES, DOC_TEXTS_PATH, type DocTextName } from "../../core/docs/doc-text-files.ts";
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";

/** Every text, by name (the placeholder test reads them all). */
export type DocTexts = Record<DocTextName, string>;

/** Any origin does: the assets binding answers by path. */
const ASSETS_ORIGIN = "https://assets.invalid";

let loading: Promise<DocTexts> | null = null;

async function readAll(assets: Fetcher): Promise<DocTexts> {
  const entries = await Promise.all(
    (Object.entries(DOC_TEXT_FILES) as Array<[DocTextName, string]>).map(async ([name, file]) => {
      const path = `${DOC_TEXTS_PATH}/${file}`;
      const res = await assets.fetch(new Request(`${ASSETS_ORIGIN}${path}`));
      // A deployment without them cannot serve its docs: say so rather than serve an empty page.
      if (!res.ok) throw new ApiError(503, `the docs are missing from this deployment's assets (${path}, ${res.status}): build the dashboard before deploying`);
      return [name, await res.text()] as const;
    }),
  );
  return Object.fromEntries(entries) as DocTexts;
}

/** The texts, read once per isolate; a failed read is tried again by the next request. */
export function loadDocTexts(env: Pick<Env, "ASSETS">): Promise<DocTexts> {
  if (!env.ASSETS) return Promise.reject(new ApiError(503, "the docs are read from the Worker's assets, and this deployment has none"));
  loading ??= readAll(env.ASSETS).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** The studio reference: conventions to render nodes (studio.md, then render.md). */
export const studioTextOf = (texts: DocTexts) => `${texts.studio}\n${texts.render}`;

/** GET /api/docs before filling: the studio reference, HTTP behaviour, agents, security, the idea board. */
export const referenceTextOf = (texts: DocTexts) => [studioTextOf(texts), texts.agentHttp, texts.agents, texts.security, texts.ideas].join("\n\n");
