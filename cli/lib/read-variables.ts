// `studio render --variables <json>` / `--variables-file <path>` (HyperFrames' flags): one JSON object of values
// over the composition's declared variable defaults. Checked here against the same shape and limits as the API
// (core/render/render-variables.ts), so a mistake is a usage error naming it before anything is sent.
import { readFileSync, statSync } from "node:fs";
import { parseVariablesJson, RENDER_VARIABLE_LIMITS } from "../../core/render/render-variables.ts";

export class VariablesFlagError extends Error {}

/** The variables the flags give, or undefined when neither is given. Throws VariablesFlagError saying what is wrong. */
export function readVariablesFlags(inline: string | undefined, file: string | undefined): Record<string, unknown> | undefined {
  if (inline !== undefined && file !== undefined) throw new VariablesFlagError("use either --variables or --variables-file, not both");
  if (inline === undefined && file === undefined) return undefined;
  let text = inline;
  const source = file === undefined ? "--variables" : `--variables-file ${file}`;
  if (file !== undefined) {
    try {
      // Larger than the API takes is refused unread: the file could be anything.
      if (statSync(file).size > RENDER_VARIABLE_LIMITS.bytes * 2) throw new VariablesFlagError(`${source}: over ${RENDER_VARIABLE_LIMITS.bytes} bytes`);
      text = readFileSync(file, "utf8");
    } catch (error) {
      if (error instanceof VariablesFlagError) throw error;
      throw new VariablesFlagError(`${source}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  const parsed = parseVariablesJson(text!);
  if (!parsed.ok) throw new VariablesFlagError(`${source}: ${parsed.error}`);
  return parsed.variables;
}
