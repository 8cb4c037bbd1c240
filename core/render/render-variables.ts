// Render-time variables (the `variables` render option, HyperFrames' `--variables`): their size limits, and how
// they are checked against what the composition declares. A value over a declared one replaces its default in
// window.__hyperframes.getVariables() and in the composition's CSS custom properties. Pure: the Worker (a strict
// render's 400), the render node (warnings in the log, or a failed strict render) and the CLI use the same words.
import type { VariableDeclaration } from "../composition/read-variable-declarations.ts";
import { jsonObjectProblem } from "../json-object-shape.ts";

/** What one render's `variables` may weigh: serialised bytes, keys at the top level, nesting depth of values. */
export const RENDER_VARIABLE_LIMITS = { bytes: 32 * 1024, keys: 100, depth: 5, keyLength: 100 } as const;

/** Null when `value` is a variables object within the limits; otherwise what is wrong, for a 400 or a CLI error. */
export function variablesShapeProblem(value: unknown): string | null {
  return jsonObjectProblem(value, RENDER_VARIABLE_LIMITS, 'a JSON object keyed by variable id, such as {"title":"Q4 Report"}');
}

/** Variables given as JSON text (a CLI flag, a preview URL's ?variables=): the object, or what is wrong with it. */
export function parseVariablesJson(text: string): { ok: true; variables: Record<string, unknown> } | { ok: false; error: string } {
  if (text.length > RENDER_VARIABLE_LIMITS.bytes * 2) return { ok: false, error: `over ${RENDER_VARIABLE_LIMITS.bytes} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  const problem = variablesShapeProblem(value);
  return problem ? { ok: false, error: problem } : { ok: true, variables: value as Record<string, unknown> };
}

export interface VariableIssue {
  kind: "undeclared" | "type-mismatch" | "not-an-option";
  id: string;
  message: string;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);

/** The expected shape when `value` does not fit the declared type, else null. Unknown types accept anything. */
function typeProblem(value: unknown, declaration: VariableDeclaration): string | null {
  switch (declaration.type) {
    case "string":
    case "color":
      return typeof value === "string" ? null : declaration.type;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? null : "number";
    case "boolean":
      return typeof value === "boolean" ? null : "boolean";
    case "enum":
      return typeof value === "string" ? null : "enum (string)";
    case "font":
      if (typeof value === "string") return null;
      return isRecord(value) && typeof value["name"] === "string" && typeof value["source"] === "string" ? null : "font (a string or {name, source})";
    case "image":
      if (typeof value === "string") return null;
      return isRecord(value) && typeof value["url"] === "string" ? null : "image (a string or {url})";
    default:
      return null;
  }
}

function optionValues(declaration: VariableDeclaration): unknown[] {
  return declaration.options.map((option) => (isRecord(option) && "value" in option ? option["value"] : option));
}

/**
 * Every key of `values` the composition does not declare, or whose value does not fit the declared type (as
 * HyperFrames checks `--variables`). `file` names the composition in the messages. A composition that declares
 * nothing makes every key undeclared (HyperFrames skips the check then; a value nobody reads is worth a word).
 */
export function validateVariables(values: Record<string, unknown>, declarations: VariableDeclaration[], file: string): VariableIssue[] {
  const byId = new Map(declarations.map((declaration) => [declaration.id, declaration]));
  const issues: VariableIssue[] = [];
  for (const [id, value] of Object.entries(values)) {
    const declaration = byId.get(id);
    if (!declaration) {
      const known = declarations.length > 0 ? `; declared: ${declarations.map((d) => d.id).join(", ")}` : "; it declares none";
      issues.push({ kind: "undeclared", id, message: `variable "${id}" is not declared in data-composition-variables of ${file}${known}` });
      continue;
    }
    const expected = typeProblem(value, declaration);
    if (expected) {
      issues.push({ kind: "type-mismatch", id, message: `variable "${id}" expects ${expected} (declared in ${file}), got ${typeName(value)}` });
      continue;
    }
    const allowed = declaration.type === "enum" ? optionValues(declaration) : [];
    if (allowed.length > 0 && !allowed.some((option) => String(option) === String(value))) {
      issues.push({ kind: "not-an-option", id, message: `variable "${id}" must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")} (declared in ${file}), got ${JSON.stringify(value)}` });
    }
  }
  return issues;
}

/** The text a strict render fails with: every issue, each naming its key. */
export function describeVariableIssues(issues: VariableIssue[]): string {
  return `strictVariables: ${issues.map((issue) => issue.message).join("; ")}`;
}
