// Builders for lint tests: a composition that lints clean, with each part replaceable to break one rule.
import { lintProject } from "./lint-project.ts";
import type { LintInputFile, LintOptions, LintResult } from "./types.ts";

export const GSAP_TAG = '<script src="https://cdn.jsdelivr.net/npm/gsap@3.14.2/dist/gsap.min.js"></script>';

export interface CompositionParts {
  id?: string;
  /** Attributes of the root element; replaces the default data-* set entirely. */
  rootAttributes?: string;
  /** Extra markup in <head> after the GSAP tag. */
  head?: string;
  /** Replaces the GSAP <script> tag. */
  gsapTag?: string;
  /** Replaces the whole <style> body. */
  css?: string;
  /** Markup inside the root element. */
  body?: string;
  /** Replaces the timeline script body. */
  script?: string;
}

export function timelineScript(id: string): string {
  return `const tl = gsap.timeline({ paused: true });
  tl.from('[data-composition-id="${id}"] .title', { opacity: 0, duration: 1 });
  window.__timelines = window.__timelines || {};
  window.__timelines["${id}"] = tl;`;
}

export function canvasCss(id: string, width = 1920, height = 1080): string {
  return `html, body { margin: 0; width: ${width}px; height: ${height}px; overflow: hidden; }
  [data-composition-id="${id}"] .title { font-size: 96px; }`;
}

export function buildComposition(parts: CompositionParts = {}): string {
  const id = parts.id ?? "demo";
  const rootAttributes = parts.rootAttributes ?? `data-composition-id="${id}" data-start="0" data-duration="6" data-width="1920" data-height="1080"`;
  return `<!doctype html>
<html>
<head>
${parts.gsapTag ?? GSAP_TAG}
${parts.head ?? ""}
<style>
  ${parts.css ?? canvasCss(id)}
</style>
</head>
<body>
<div id="root" ${rootAttributes}>
  <h1 class="title">Hello</h1>
  ${parts.body ?? ""}
</div>
<script>
  ${parts.script ?? timelineScript(id)}
</script>
</body>
</html>`;
}

/** A sub-composition fragment file whose root carries `id`. */
export function buildSubComposition(id: string, extra = ""): string {
  return `<template>
<div data-composition-id="${id}" data-width="1920" data-height="1080">
  <p class="line">Sub</p>${extra}
</div>
<style>[data-composition-id="${id}"] .line { color: white; }</style>
<script>
  const sub = gsap.timeline({ paused: true });
  sub.from('[data-composition-id="${id}"] .line', { opacity: 0, duration: 1 });
  window.__timelines = window.__timelines || {};
  window.__timelines["${id}"] = sub;
</script>
</template>`;
}

/** Lint a project given as path -> text (string) or path -> size (binary asset). */
export function lintFiles(files: Record<string, string | number>, options?: LintOptions, entry?: string): LintResult {
  const list: LintInputFile[] = Object.entries(files).map(([path, content]) =>
    typeof content === "number" ? { path, size: content } : { path, size: new TextEncoder().encode(content).length, text: content },
  );
  return lintProject(entry === undefined ? { files: list } : { files: list, entry }, options);
}

/** Sorted distinct codes of a result, for exact comparisons. */
export function codesOf(result: LintResult): string[] {
  return [...new Set(result.findings.map((finding) => finding.code))].sort();
}
