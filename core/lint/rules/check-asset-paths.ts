// Every file a composition loads must be in the project: render nodes serve project files and block the rest.
import { extractCssUrls, readImportTarget } from "../../css/extract-css-urls.ts";
import { listAtRules } from "../../css/parse-css.ts";
import { describeElement } from "../../html/describe-element.ts";
import { readAttribute, type HtmlElement } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import { isShaderTransitionsUrl } from "../../composition/match-shader-transitions-url.ts";
import { findProjectFile, type CompositionFile } from "../load-composition.ts";
import { classifyReference, normalizePath, pathOf } from "../project-paths.ts";
import type { ProjectContext } from "../project-context.ts";
import type { LintFinding } from "../types.ts";

interface Reference {
  url: string;
  /** The file whose location the URL is relative to. */
  file: string;
  selector: string;
  /** data-composition-src targets are checked for existence by the sub-composition rule. */
  existenceCheckedElsewhere: boolean;
}

const SRC_ELEMENTS = new Set(["img", "script", "audio", "video", "source", "track", "iframe", "embed", "input"]);
const LINK_RELS_NOT_LOADED = /\b(?:preconnect|dns-prefetch|canonical|alternate|author|license|help|next|prev)\b/i;
// Font CSS and font files are allowed remotes (web fonts are part of the composition rules).
const FONT_HOST = /^(?:https?:)?\/\/(?:fonts\.googleapis\.com|fonts\.gstatic\.com|fonts\.bunny\.net|api\.fontshare\.com|cdn\.fontshare\.com|fonts\.cdnfonts\.com)\//i;

function elementReferences(file: CompositionFile, element: HtmlElement): Reference[] {
  const selector = describeElement(element);
  const urls: Array<{ url: string; elsewhere: boolean }> = [];
  const src = readAttribute(element, "src");
  if (src !== null && SRC_ELEMENTS.has(element.name)) urls.push({ url: src, elsewhere: false });
  const href = readAttribute(element, "href");
  if (href !== null && element.name === "link" && !LINK_RELS_NOT_LOADED.test(readAttribute(element, "rel") ?? "")) urls.push({ url: href, elsewhere: false });
  if (href !== null && (element.name === "image" || element.name === "use") && !href.startsWith("#")) urls.push({ url: href, elsewhere: false });
  const poster = readAttribute(element, "poster");
  if (poster !== null && element.name === "video") urls.push({ url: poster, elsewhere: false });
  const compositionSrc = readAttribute(element, "data-composition-src");
  if (compositionSrc !== null) urls.push({ url: compositionSrc, elsewhere: true });
  for (const url of extractCssUrls(readAttribute(element, "style") ?? "", "declarationList")) urls.push({ url, elsewhere: false });
  return urls.map(({ url, elsewhere }) => ({ url, file: file.path, selector, existenceCheckedElsewhere: elsewhere }));
}

function styleReferences(file: CompositionFile): Reference[] {
  const out: Reference[] = [];
  for (const sheet of file.styles) {
    const selector = sheet.file === file.path ? "style" : sheet.file;
    for (const url of extractCssUrls(sheet.text)) out.push({ url, file: sheet.file, selector, existenceCheckedElsewhere: false });
    for (const atRule of listAtRules(sheet.nodes)) {
      const target = atRule.name === "import" ? readImportTarget(atRule.prelude) : null;
      // url(...) imports were already collected above; only bare quoted imports are new here.
      if (target && !/url\(/i.test(atRule.prelude)) out.push({ url: target, file: sheet.file, selector: `@import ${atRule.prelude}`, existenceCheckedElsewhere: false });
    }
  }
  return out;
}

function checkReference(reference: Reference, file: CompositionFile, project: ProjectContext): LintFinding | null {
  const { url, selector } = reference;
  const where = reference.file === file.path ? file.path : reference.file;
  switch (classifyReference(url)) {
    case "parent":
      return createFinding("asset_path_parent", where, `The path "${url}" contains "..", which leaves the project folder; render nodes refuse it.`, { selector, fixHint: `Use a project-relative path such as "assets/${pathOf(url).split("/").at(-1) ?? "<file>"}".` });
    case "absolute":
      return createFinding("asset_path_absolute", where, `The path "${url}" starts with "/", so it depends on where the project is served from.`, { selector, fixHint: `Drop the leading slash: "${normalizePath(pathOf(url))}".` });
    case "remote":
      // GSAP URLs, good or bad, are the GSAP rule's business; HyperShader's library is answered by our own.
      if (FONT_HOST.test(url) || /gsap/i.test(url) || isShaderTransitionsUrl(url)) return null;
      return createFinding("remote_resource", where, `"${url}" is loaded from another host; render nodes have no internet and serve only project files and GSAP, so it will be missing from the video.`, { selector, fixHint: "Upload the file under assets/ and reference it as assets/<file>." });
    case "local":
      if (reference.existenceCheckedElsewhere || findProjectFile(project.files, url, reference.file)) return null;
      return createFinding("asset_missing", where, `"${url}" does not exist in the project, so it fails to load in the render.`, { selector, fixHint: `Upload it (PUT /api/projects/<slug>/files/${normalizePath(pathOf(url))}) or fix the path; project files: ${[...project.files.keys()].slice(0, 8).join(", ")}${project.files.size > 8 ? ", ..." : ""}.` });
    default:
      return null;
  }
}

export function checkAssetPaths(file: CompositionFile, project: ProjectContext): LintFinding[] {
  const references = [...file.elements.flatMap((element) => elementReferences(file, element)), ...styleReferences(file)];
  const seen = new Set<string>();
  const findings: LintFinding[] = [];
  for (const reference of references) {
    const finding = checkReference(reference, file, project);
    if (!finding) continue;
    const key = `${finding.code}\u0000${finding.file}\u0000${reference.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push(finding);
  }
  return findings;
}
