// The render cache's key (issue 35, point 1): one hash of everything that decides a render's output, so two renders
// of the same project with the same key make the same file and the second can be the first's. Computed once, here,
// from plain data (worker/renders/render-inputs.ts gathers it); pure (WebCrypto's SHA-256 is in workerd, Node and the
// browser alike).
import { canonicalJson } from "../canonical-json.ts";
import { SHIPPED_GSAP_VERSIONS } from "../composition/gsap-versions.ts";
import { RENDER_ENGINE_VERSION } from "./render-engine.ts";
import type { RenderOptions } from "./render-options.ts";

/** One project file as the render reads it: its path and a hash of its bytes (R2's MD5 ETag for the Worker). */
export interface HashedFile {
  path: string;
  hash: string;
}

export interface RenderCacheInputs {
  /** Every file the render can load: any order (they are sorted here). */
  files: readonly HashedFile[];
  /** The render's options after their defaults were applied (renderOptionsSchema's output). */
  options: RenderOptions;
  /** The render engine's version and the GSAP releases it serves; the current ones unless a test says otherwise. */
  engine?: { version: string; gsapVersions: readonly string[] };
}

/**
 * Options that never change a render's output: where its end is told (`webhookUrl`, `wait`), the caller's own
 * `metadata`, and the cache's own switches. Every other option is in the key, so an option added later misses until
 * it is listed here: a new option can make the cache miss, never reuse a different video.
 */
const NOT_OUTPUT: ReadonlySet<string> = new Set(["wait", "webhookUrl", "metadata", "dryRun", "force"]);

/** The options that decide the output, defaults applied (an absent option and its default are the same render). */
export function outputOptions(options: RenderOptions): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([name]) => !NOT_OUTPUT.has(name)));
}

/** The key: SHA-256 (hex) of the canonical JSON of the engine, the files by path and hash, and the output options. */
export async function renderCacheKey({ files, options, engine }: RenderCacheInputs): Promise<string> {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((f) => [f.path, f.hash]);
  const text = canonicalJson({
    engine: engine?.version ?? RENDER_ENGINE_VERSION,
    gsap: engine?.gsapVersions ?? SHIPPED_GSAP_VERSIONS,
    files: sorted,
    options: outputOptions(options),
  });
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
