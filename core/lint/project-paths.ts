// Path helpers for project-relative references. Pure string work: core must not import a path module.
import { decodeComponent } from "../parse-text.ts";

export type ReferenceKind = "skip" | "remote" | "absolute" | "parent" | "local";

/** Classify a src/href/url() value by how the renderer would load it. */
export function classifyReference(reference: string): ReferenceKind {
  const value = reference.trim();
  if (!value || value.startsWith("#")) return "skip";
  if (/^(?:data|blob|about|javascript|mailto|tel):/i.test(value)) return "skip";
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith("//")) return "remote";
  if (pathOf(value).split("/").includes("..")) return "parent";
  if (value.startsWith("/")) return "absolute";
  return "local";
}

/** The path part of a reference: no query, no fragment, percent-escapes decoded where valid. */
export function pathOf(reference: string): string {
  const path = reference.trim().split(/[?#]/)[0] ?? "";
  const decoded = decodeComponent(path);
  // A '%' that starts no valid escape is a literal character of the name: the path as written.
  return decoded.ok ? decoded.value : path;
}

/** Collapse `./` and empty segments: `./assets//a.png` becomes `assets/a.png`. */
export function normalizePath(path: string): string {
  return path.split("/").filter((segment) => segment !== "" && segment !== ".").join("/");
}

export function directoryOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/**
 * Where a local reference may point, most likely first. Sub-compositions are loaded into the entry document,
 * so a reference can be project-root relative as well as relative to the file that contains it.
 */
export function candidatePaths(reference: string, fromFile: string): string[] {
  const path = pathOf(reference);
  const fromRoot = normalizePath(path);
  const directory = directoryOf(fromFile);
  const fromDirectory = directory ? normalizePath(`${directory}/${path}`) : fromRoot;
  return fromRoot === fromDirectory ? [fromRoot] : [fromRoot, fromDirectory];
}
