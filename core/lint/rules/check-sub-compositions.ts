// A sub-composition host names a file under compositions/ and says where on the parent timeline it plays.
import { describeElement } from "../../html/describe-element.ts";
import { hasAttribute, readAttribute, type HtmlElement } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import { classifyReference, normalizePath, pathOf } from "../project-paths.ts";
import type { ProjectContext } from "../project-context.ts";
import type { LintFinding } from "../types.ts";

const TIMING_ATTRIBUTES = ["data-start", "data-duration"];
const LAYOUT_ATTRIBUTES = ["data-track-index", "data-width", "data-height"];
const EXAMPLE_HOST = '<div data-composition-id="intro" data-composition-src="compositions/intro.html" data-start="0" data-duration="3" data-track-index="1" data-width="1920" data-height="1080"></div>';

function checkHost(file: CompositionFile, host: HtmlElement, project: ProjectContext): LintFinding[] {
  const findings: LintFinding[] = [];
  const selector = describeElement(host);
  const src = (readAttribute(host, "data-composition-src") ?? "").trim();
  const hostId = readAttribute(host, "data-composition-id")?.trim() ?? "";
  if (!hostId) {
    findings.push(createFinding("subcomp_missing_attribute", file.path, `The sub-composition host for "${src}" lacks data-composition-id; the player cannot place it on the timeline.`, { selector, fixHint: `Write the host like ${EXAMPLE_HOST}` }));
  }
  // Without these the host starts with its parent and ends with its own timeline, in HyperFrames as here.
  const missing = TIMING_ATTRIBUTES.filter((name) => !readAttribute(host, name)?.trim());
  if (missing.length > 0) {
    findings.push(createFinding("subcomp_missing_timing_attribute", file.path, `The sub-composition host for "${src}" lacks ${missing.join(", ")}; it starts with its parent and lasts as long as its own timeline.`, { selector, fixHint: `Write the host like ${EXAMPLE_HOST}` }));
  }
  const missingLayout = LAYOUT_ATTRIBUTES.filter((name) => !hasAttribute(host, name));
  if (missingLayout.length > 0) {
    findings.push(createFinding("subcomp_missing_layout_attribute", file.path, `The sub-composition host for "${src}" lacks ${missingLayout.join(", ")}.`, { selector, fixHint: 'Add data-track-index="1" data-width="1920" data-height="1080" (matching the sub-composition\'s canvas).' }));
  }
  if (host.name !== "div") {
    findings.push(createFinding("subcomp_host_not_div", file.path, `A <${host.name}> hosts a sub-composition; hosts are <div> elements.`, { selector, fixHint: `Use a <div>, e.g. ${EXAMPLE_HOST}` }));
  }
  const kind = classifyReference(src);
  if (kind !== "local") {
    // Parent paths, absolute and remote srcs are reported by the asset rule; an empty src is reported here.
    if (!src) findings.push(createFinding("subcomp_file_missing", file.path, "data-composition-src is empty.", { selector, fixHint: 'Set data-composition-src="compositions/<name>.html".' }));
    return findings;
  }
  const path = normalizePath(pathOf(src));
  if (!/^compositions\/[^/]+(?:\/[^/]+)*\.html$/.test(path)) {
    findings.push(createFinding("subcomp_src_outside_compositions", file.path, `data-composition-src="${src}" is not a compositions/<file>.html path.`, { selector, fixHint: "Move the file to compositions/<name>.html and point data-composition-src at it." }));
  }
  const target = project.files.get(path);
  if (!target) {
    findings.push(createFinding("subcomp_file_missing", file.path, `data-composition-src="${src}" names a file that does not exist in the project.`, { selector, fixHint: `Create ${path} (PUT it to the files endpoint) or fix the path.` }));
    return findings;
  }
  if (target.size === 0 || (target.text !== undefined && target.text.trim() === "")) {
    findings.push(createFinding("subcomp_file_empty", file.path, `data-composition-src="${src}" names an empty file.`, { selector, fixHint: `Write the sub-composition into ${path}: a root element with data-composition-id="${hostId || "<id>"}", data-width and data-height, its styles and its paused timeline.` }));
    return findings;
  }
  const sub = project.compositions.find((composition) => composition.path === path);
  const subId = sub?.root ? readAttribute(sub.root, "data-composition-id")?.trim() : undefined;
  // A file mounted twice, or with per-host variables, runs under each host's id (the runtime maps the file's own id
  // to it, as HyperFrames does): the ids differ there by design.
  const perHost = hasAttribute(host, "data-variable-values") || countMounts(project, path) > 1;
  if (hostId && subId && subId !== hostId && !perHost) {
    findings.push(createFinding("subcomp_id_mismatch", file.path, `The host has data-composition-id="${hostId}" but the root of ${path} has data-composition-id="${subId}"; the player looks up the timeline by the host's id.`, { selector, fixHint: `Use the same id in both places, e.g. data-composition-id="${subId}" on the host.` }));
  }
  return findings;
}

/** How many hosts in the project mount the file at `path`. */
function countMounts(project: ProjectContext, path: string): number {
  return project.compositions
    .flatMap((composition) => composition.elements)
    .filter((element) => {
      const src = readAttribute(element, "data-composition-src")?.trim();
      return src !== undefined && classifyReference(src) === "local" && normalizePath(pathOf(src)) === path;
    }).length;
}

export function checkSubCompositions(file: CompositionFile, project: ProjectContext): LintFinding[] {
  return file.elements.filter((element) => hasAttribute(element, "data-composition-src")).flatMap((host) => checkHost(file, host, project));
}
