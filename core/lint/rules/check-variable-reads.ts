// Variables a script reads through window.__hyperframes.getVariables() (`getVariables().title`, `["title"]`,
// `const { title } = ...getVariables()`, or through a name it was assigned to) that nothing declares for the file:
// not its data-composition-variables (on <html>, the root or any element), nor, for a sub-composition, the
// data-variable-values of a host that mounts it. Such a read is undefined unless a render passes the value, which
// is easy to miss when a declaration has a typo. Library files (vendored-script.ts) are not read.
import { hasAttribute, readAttribute } from "../../html/parse-html.ts";
import { describeElement } from "../../html/describe-element.ts";
import { parseDeclarations } from "../../composition/read-variable-declarations.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile, ScriptBlock } from "../load-composition.ts";
import { normalizePath, pathOf } from "../project-paths.ts";
import type { ProjectContext } from "../project-context.ts";
import type { LintFinding } from "../types.ts";
import { vendoredReason } from "../vendored-script.ts";
import { parseJson } from "../../parse-text.ts";

const CALL = String.raw`getVariables\s*\(\s*\)`;
const NAME = String.raw`[A-Za-z_$][\w$]*`;

/** Keys of a destructuring pattern's text (`a, b: c, "d": e, f = 1, ...rest` → a, b, d, f). */
function patternKeys(pattern: string): string[] {
  return pattern
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "" && !item.startsWith("..."))
    .map((item) => item.split(/[:=]/)[0]!.trim().replace(/^["']|["']$/g, ""))
    .filter((key) => /^[\w$-]+$/.test(key));
}

/** Methods every object has: `vars.hasOwnProperty("x")` reads no variable. */
const OBJECT_METHODS = new Set(["hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toString", "toLocaleString", "valueOf", "constructor"]);

/** Every variable id the script reads, in order of appearance. */
export function readVariableIds(code: string): string[] {
  return collectVariableIds(code).filter((id) => !OBJECT_METHODS.has(id));
}

function collectVariableIds(code: string): string[] {
  const ids: string[] = [];
  const member = (prefix: string) => new RegExp(String.raw`${prefix}\s*(?:\?\.\s*|\.\s*)(${NAME})|${prefix}\s*(?:\?\.)?\[\s*(["'])([^"'\\\n]+)\2\s*\]`, "g");
  const collect = (re: RegExp) => {
    for (const m of code.matchAll(re)) ids.push(m[1] ?? m[3]!);
  };
  collect(member(CALL));
  for (const m of code.matchAll(new RegExp(String.raw`(?:const|let|var)\s*\{([^{}]*)\}\s*=\s*[^;\n]*?${CALL}`, "g"))) ids.push(...patternKeys(m[1]!));
  for (const m of code.matchAll(new RegExp(String.raw`(?:const|let|var)\s+(${NAME})\s*=\s*[^;\n]*?${CALL}\s*(?:;|\n|$)`, "g"))) {
    collect(member(String.raw`(?<![\w$.])${m[1]!.replace(/\$/g, "\\$")}`));
    for (const d of code.matchAll(new RegExp(String.raw`(?:const|let|var)\s*\{([^{}]*)\}\s*=\s*${m[1]!.replace(/\$/g, "\\$")}\b`, "g"))) ids.push(...patternKeys(d[1]!));
  }
  return ids;
}

/** Ids a file declares anywhere, plus those its mounting hosts give (data-variable-values). */
function providedIds(file: CompositionFile, project: ProjectContext): Set<string> {
  const ids = new Set<string>();
  for (const element of file.elements) {
    for (const declaration of parseDeclarations(readAttribute(element, "data-composition-variables"))) ids.add(declaration.id);
  }
  for (const other of project.compositions) {
    for (const host of listHosts(other)) {
      if (normalizePath(pathOf(readAttribute(host, "data-composition-src") ?? "")) !== file.path) continue;
      const read = parseJson(readAttribute(host, "data-variable-values") ?? "{}");
      if (!read.ok) continue; // a malformed data-variable-values provides nothing
      const values = read.value;
      if (values && typeof values === "object" && !Array.isArray(values)) Object.keys(values).forEach((key) => ids.add(key));
    }
  }
  return ids;
}

const listHosts = (file: CompositionFile) => file.elements.filter((element) => hasAttribute(element, "data-composition-src"));

const isAuthored = (script: ScriptBlock) => script.source !== null && (script.src === null || vendoredReason(script.file, script.text) === null);

export function checkVariableReads(file: CompositionFile, project: ProjectContext): LintFinding[] {
  const scripts = file.scripts.filter(isAuthored);
  if (scripts.length === 0) return [];
  const provided = providedIds(file, project);
  const findings: LintFinding[] = [];
  const reported = new Set<string>();
  for (const script of scripts) {
    for (const id of readVariableIds(script.source!.code)) {
      if (provided.has(id) || reported.has(`${script.file}|${id}`)) continue;
      reported.add(`${script.file}|${id}`);
      findings.push(createFinding("variable_undeclared", script.file, `The script reads variable "${id}" through getVariables(), but no data-composition-variables in ${file.path} declares it${file.isEntry ? "" : " and no host passes it in data-variable-values"}, so it is undefined unless a render passes it.`, {
        selector: describeElement(script.element),
        fixHint: `Declare it on the root: data-composition-variables='[{"id":"${id}","type":"string","label":"${id}","default":"..."}]' (a JSON array), or fix the name.`,
      }));
    }
  }
  return findings;
}
