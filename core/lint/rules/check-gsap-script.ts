// GSAP must come from a package CDN, pinned to a release render nodes ship (core/composition/gsap-versions.ts),
// before any script that uses it.
import { describeElement } from "../../html/describe-element.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import { classifyReference } from "../project-paths.ts";
import type { ProjectContext } from "../project-context.ts";
import { GSAP_CDN_URL, GSAP_VERSION, isGsapCore, matchGsapUrl } from "../../composition/match-gsap-url.ts";
import { serveGsapVersion, SHIPPED_GSAP_VERSIONS } from "../../composition/gsap-versions.ts";
import type { LintFinding } from "../types.ts";

const USES_GSAP = /(?<![\w$.])gsap\s*\./;
const SCRIPT_TAG = `<script src="${GSAP_CDN_URL}"></script>`;

/** Index (in file.scripts) of the first script that loads GSAP core, or -1. */
export function findGsapCoreScript(file: CompositionFile): number {
  return file.scripts.findIndex((script) => {
    if (script.src === null) return false;
    const source = matchGsapUrl(script.src);
    if (source) return isGsapCore(source.file);
    // A local copy (e.g. assets/gsap.min.js) loads; an unsupported remote URL is reported as such, not as missing.
    return /(?:^|\/)gsap(?:\.min)?\.js$/i.test(script.src.split(/[?#]/)[0] ?? "");
  });
}

export function checkGsapScript(file: CompositionFile, project: ProjectContext): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const script of file.scripts) {
    if (script.src === null || !/gsap/i.test(script.src) || classifyReference(script.src) !== "remote") continue;
    const selector = describeElement(script.element);
    const source = matchGsapUrl(script.src);
    if (!source) {
      findings.push(createFinding("gsap_source_unsupported", file.path, `GSAP is loaded from ${script.src}; render nodes have no internet and only serve package-CDN URLs of the form .../gsap@${GSAP_VERSION}/dist/<file>.js.`, {
        selector,
        fixHint: `Use ${SCRIPT_TAG}`,
      }));
    } else if (!serveGsapVersion(source.version).exact) {
      const served = serveGsapVersion(source.version).version;
      findings.push(createFinding("gsap_version_mismatch", file.path, source.version ? `GSAP ${source.version} is loaded; render nodes ship GSAP ${SHIPPED_GSAP_VERSIONS.join(", ")} and render it with ${served}, the nearest.` : `GSAP is loaded without a pinned version, so the render could pick up a different release than the preview (render nodes serve ${served}).`, {
        selector,
        fixHint: `Pin a shipped version: ${script.src.includes("cdnjs") ? `https://cdnjs.cloudflare.com/ajax/libs/gsap/${served}/${source.file}` : `.../gsap@${served}/dist/${source.file}`}`,
      }));
    }
  }
  const firstUse = file.scripts.findIndex((script) => script.source !== null && USES_GSAP.test(script.source.bare));
  if (firstUse === -1) return findings;
  const loader = findGsapCoreScript(file);
  const user = file.scripts[firstUse];
  const selector = user ? describeElement(user.element) : "script";
  if (loader === -1) {
    // A fragment loaded into the entry document can rely on the entry's GSAP.
    const entryLoads = !file.isEntry && project.entry !== null && findGsapCoreScript(project.entry) !== -1;
    if (!entryLoads) {
      findings.push(createFinding("gsap_missing", file.path, "A script uses gsap, but no <script> loads GSAP, so it throws ReferenceError and nothing animates.", {
        selector,
        fixHint: `Add ${SCRIPT_TAG} in <head>, before your scripts.`,
      }));
    }
  } else if (loader > firstUse) {
    findings.push(createFinding("gsap_missing", file.path, "A script uses gsap before the <script> that loads GSAP, so gsap is undefined when it runs.", {
      selector,
      fixHint: `Move ${SCRIPT_TAG} above the scripts that use gsap (e.g. into <head>).`,
    }));
  }
  return findings;
}
