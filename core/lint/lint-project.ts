// Entry point of the linter: picks the composition files, runs every rule on each, and counts the findings.
import { hasAttribute, readAttribute } from "../html/parse-html.ts";
import { createFinding } from "./create-finding.ts";
import { loadComposition, type CompositionFile } from "./load-composition.ts";
import { classifyReference, normalizePath, pathOf } from "./project-paths.ts";
import type { ProjectContext } from "./project-context.ts";
import { checkAnimationFrame } from "./rules/check-animation-frame.ts";
import { checkAssetPaths } from "./rules/check-asset-paths.ts";
import { checkCanvas } from "./rules/check-canvas.ts";
import { checkClipTiming } from "./rules/check-clip-timing.ts";
import { checkUnsupportedFeatures } from "./rules/check-unsupported-features.ts";
import { checkClipVisibility } from "./rules/check-clip-visibility.ts";
import { checkCssAnimations } from "./rules/check-css-animations.ts";
import { checkCssScope } from "./rules/check-css-scope.ts";
import { checkDeterminism } from "./rules/check-determinism.ts";
import { checkDuplicateCompositionIds, checkDuplicateElementIds } from "./rules/check-duplicate-ids.ts";
import { checkGsapScript } from "./rules/check-gsap-script.ts";
import { checkInfiniteRepeat } from "./rules/check-infinite-repeat.ts";
import { checkMedia } from "./rules/check-media.ts";
import { checkNonTransformMotion } from "./rules/check-non-transform-motion.ts";
import { checkRoot } from "./rules/check-root.ts";
import { checkRootLimits } from "./rules/check-root-limits.ts";
import { checkPosterTime } from "./rules/check-poster-time.ts";
import { checkScriptSyntax } from "./rules/check-script-syntax.ts";
import { checkSubCompositions } from "./rules/check-sub-compositions.ts";
import { checkTimelines } from "./rules/check-timelines.ts";
import { checkWebFonts } from "./rules/check-web-fonts.ts";
import { checkFontFamilies } from "./rules/check-font-families.ts";
import { summarizeComposition } from "./rules/summarize-composition.ts";
import { checkVariableReads } from "./rules/check-variable-reads.ts";
import { vendoredReason } from "./vendored-script.ts";
import { isShaderTransitionsLibrary } from "../composition/recognise-shader-library.ts";
import type { LintFinding, LintInput, LintInputFile, LintOptions, LintResult } from "./types.ts";

type FileRule = (file: CompositionFile, project: ProjectContext) => LintFinding[];

const FILE_RULES: FileRule[] = [
  checkRoot,
  checkRootLimits,
  checkPosterTime,
  checkCanvas,
  checkScriptSyntax,
  checkGsapScript,
  checkTimelines,
  checkDeterminism,
  checkAnimationFrame,
  checkInfiniteRepeat,
  checkNonTransformMotion,
  checkClipVisibility,
  checkCssScope,
  checkCssAnimations,
  checkWebFonts,
  checkFontFamilies,
  checkMedia,
  checkClipTiming,
  checkUnsupportedFeatures,
  checkSubCompositions,
  checkAssetPaths,
  checkDuplicateElementIds,
  checkVariableReads,
  summarizeComposition,
];

/**
 * Local files the render nodes answer with their own code instead (HyperFrames' shader-transition library,
 * core/composition/recognise-shader-library.ts): none of their text runs, so nothing in it is reported.
 */
function replacedFiles(compositions: CompositionFile[]): Set<string> {
  const out = new Set<string>();
  for (const composition of compositions) {
    for (const script of composition.scripts) {
      if (script.src !== null && script.file !== composition.path && script.text !== null && isShaderTransitionsLibrary(script.text)) out.add(script.file);
    }
  }
  return out;
}

/** Local library files the compositions load (vendored-script.ts), with why each reads as one. */
function vendoredFiles(compositions: CompositionFile[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const composition of compositions) {
    for (const script of composition.scripts) {
      if (script.src === null || script.file === composition.path) continue;
      const reason = vendoredReason(script.file, script.text);
      if (reason) out.set(script.file, reason);
    }
  }
  return out;
}

/**
 * A finding inside a library file becomes a warning naming the file: lint judges the author's code, and a library
 * HyperFrames renders (it lints only authored scripts) must not block a render here.
 */
function demoteLibraryFindings(findings: LintFinding[], libraries: Map<string, string>): LintFinding[] {
  return findings.map((finding) => {
    const reason = libraries.get(finding.file);
    if (!reason || finding.severity === "info") return finding;
    return createFinding("library_script_finding", finding.file, `${finding.file} is a library, not composition code (${reason}), so it is not held to the composition rules; ${finding.code}: ${finding.message}`, {
      ...(finding.selector !== undefined ? { selector: finding.selector } : {}),
      fixHint: "Nothing to fix for a library that only runs at load. If it animates by itself (its own requestAnimationFrame loop), drive it from the paused timeline instead (onUpdate), or the video shows its wall-clock state.",
    });
  });
}

/** The entry, every file reachable through data-composition-src, then any other compositions/*.html. */
function collectCompositions(files: Map<string, LintInputFile>, entryPath: string): CompositionFile[] {
  const out: CompositionFile[] = [];
  const queue = [entryPath];
  const seen = new Set<string>();
  const others = [...files.keys()].filter((path) => path.startsWith("compositions/") && path.endsWith(".html")).sort();
  while (queue.length > 0 || others.length > 0) {
    const path = queue.shift() ?? others.shift() ?? "";
    if (seen.has(path)) continue;
    seen.add(path);
    const file = files.get(path);
    if (!file || file.text === undefined || file.text.trim() === "") continue;
    const composition = loadComposition(file, files, path === entryPath);
    out.push(composition);
    for (const element of composition.elements) {
      const src = readAttribute(element, "data-composition-src");
      if (src !== null && hasAttribute(element, "data-composition-src") && classifyReference(src) === "local") queue.push(normalizePath(pathOf(src)));
    }
  }
  return out;
}

/** Composition files plus the local stylesheets and scripts read alongside them. */
function countScannedFiles(compositions: CompositionFile[]): number {
  const paths = new Set<string>();
  for (const composition of compositions) {
    paths.add(composition.path);
    for (const sheet of composition.styles) paths.add(sheet.file);
    for (const script of composition.scripts) if (script.source) paths.add(script.file);
  }
  return paths.size;
}

/** Lint a whole project the way the render pipeline will load it. */
export function lintProject(input: LintInput, options: LintOptions = {}): LintResult {
  const files = new Map(input.files.map((file) => [normalizePath(file.path), { ...file, path: normalizePath(file.path) }]));
  const entryPath = normalizePath(input.entry ?? "index.html");
  const compositions = collectCompositions(files, entryPath);
  const entry = compositions.find((composition) => composition.isEntry) ?? null;
  const project: ProjectContext = { files, compositions, entry };
  const findings: LintFinding[] = [];
  if (!entry) {
    findings.push(createFinding("entry_missing", entryPath, files.has(entryPath) ? `${entryPath} is empty.` : `${entryPath} does not exist in the project.`, {
      fixHint: `Write ${entryPath}: a 1920x1080 page whose root element carries data-composition-id, data-start="0", data-duration, data-width and data-height.`,
    }));
  }
  const libraries = vendoredFiles(compositions);
  const replaced = replacedFiles(compositions);
  for (const composition of compositions) {
    for (const rule of FILE_RULES) findings.push(...demoteLibraryFindings(rule(composition, project).filter((f) => !replaced.has(f.file)), libraries));
  }
  findings.push(...checkDuplicateCompositionIds(project));
  const shown = options.verbose ? findings : findings.filter((finding) => finding.severity !== "info");
  const count = (severity: LintFinding["severity"]): number => shown.filter((finding) => finding.severity === severity).length;
  const errorCount = count("error");
  return {
    ok: errorCount === 0,
    errorCount,
    warningCount: count("warning"),
    infoCount: count("info"),
    findings: shown,
    filesScanned: countScannedFiles(compositions),
  };
}
