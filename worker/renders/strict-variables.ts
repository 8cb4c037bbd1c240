// A render with strictVariables refuses undeclared or mistyped `variables` keys before anything is queued: the
// Worker has the project's files, so the caller gets a 400 naming each key (render-variables.ts) rather than a
// render that fails later. Without strictVariables the node reports the same issues as warnings in the log.
import { loadCompositionReaders } from "../projects/load-composition-readers.ts";
import { describeVariableIssues, validateVariables } from "../../core/render/render-variables.ts";
import type { RenderOptions } from "../../core/render/render-options.ts";
import type { Env } from "../env.ts";
import { fileKey, type ProjectRef } from "../storage/keys.ts";
import { badRequest } from "../http/errors.ts";
import type { BatchRow } from "../../core/render/batch-request.ts";

export async function refuseStrictVariableIssues(env: Pick<Env, "FILES">, ref: ProjectRef, options: Pick<RenderOptions, "composition" | "variables" | "strictVariables">): Promise<void> {
  if (!options.strictVariables || !options.variables || Object.keys(options.variables).length === 0) return;
  const object = await env.FILES.get(fileKey(ref, options.composition));
  // The caller checked the file exists; gone since, the render fails on the node naming it.
  if (!object) return;
  const { readVariableDeclarations } = await loadCompositionReaders();
  const issues = validateVariables(options.variables, readVariableDeclarations(await object.text()), options.composition);
  if (issues.length > 0) throw badRequest(`invalid variables: ${describeVariableIssues(issues)}`);
}

/** A batch's strictVariables: each row's variables judged against the composition, read once; the 400 names the
 * first row with issues. */
export async function refuseStrictRowIssues(env: Pick<Env, "FILES">, ref: ProjectRef, options: Pick<RenderOptions, "composition" | "strictVariables">, rows: BatchRow[]): Promise<void> {
  if (!options.strictVariables || rows.every((row) => Object.keys(row.variables).length === 0)) return;
  const object = await env.FILES.get(fileKey(ref, options.composition));
  if (!object) return;
  const { readVariableDeclarations } = await loadCompositionReaders();
  const declarations = readVariableDeclarations(await object.text());
  for (const [index, row] of rows.entries()) {
    const issues = validateVariables(row.variables, declarations, options.composition);
    if (issues.length > 0) throw badRequest(`invalid rows[${index}].variables: ${describeVariableIssues(issues)}`);
  }
}
