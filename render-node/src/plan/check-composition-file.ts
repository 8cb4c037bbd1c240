// The request against the composition file, before any browser starts, the file read once: it exists; its root is
// within the studio's limits (core/composition/size-limits.ts) at the rate the render counts frames at, a defence
// in depth for the Worker's check (worker/limits/composition-size.ts), since one page of data-width="100000" would
// make each browser allocate gigabytes per frame; and the render-time variables match what it declares: a strict
// render fails naming each key, otherwise each issue is a warning finding (the Worker already refused a strict
// render it could judge; this covers renders started elsewhere, such as the CLI's local render). What it read that
// the render needs later comes back with the findings: the root's data-poster-time, for the plan to settle the
// poster's moment (plan-render.ts), so no later stage (the poster, a split render's join) reads the file again.
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describeLimitProblems, findLimitProblems, readRootSize } from "../../../core/composition/size-limits.ts";
import { findRootElement } from "../../../core/composition/find-root-element.ts";
import { parseSeconds } from "../../../core/composition/parse-number-attribute.ts";
import { readPosterTime, type DeclaredPosterTime } from "../../../core/composition/poster-time.ts";
import { parseHtml, readAttribute, type HtmlDocument } from "../../../core/html/parse-html.ts";
import { documentVariableDeclarations } from "../../../core/composition/read-variable-declarations.ts";
import { makeFinding, type Finding } from "../../../core/protocol/finding.ts";
import { renderRate } from "../../../core/render/render-rate.ts";
import { describeVariableIssues, validateVariables } from "../../../core/render/render-variables.ts";
import { isNotFound } from "../system/debug-log.ts";
import type { ResolvedRender } from "./resolve-render.ts";

/** What the check reads of the request. */
export type FileCheckRequest = Pick<ResolvedRender, "composition" | "format" | "fpsGiven" | "fpsText" | "variables" | "strictVariables">;

/** What the check found and read of the file. */
export interface CompositionFileReading {
  /** The render-time variables' issues, as warning findings (none without variables). */
  variableFindings: Finding[];
  /** The root's data-poster-time (null when absent or when the file has no root). */
  declaredPosterTime: DeclaredPosterTime;
}

/** Throws when the file is missing, over a limit, or (strictVariables) its variables do not match; else what it read. */
export async function checkCompositionFile(projectDir: string, request: FileCheckRequest): Promise<CompositionFileReading> {
  const { composition } = request;
  const path = join(projectDir, composition);
  const entry = await stat(path).catch((error: unknown) => {
    if (isNotFound(error)) return null;
    throw error;
  });
  if (!entry?.isFile()) throw new Error(`composition "${composition}" does not exist in the project`);
  // Parsed once: the variables' declarations, the root's size and its data-poster-time are read from it.
  const document = parseHtml(await readFile(path, "utf8"));
  const variableFindings = checkVariables(document, request);
  const root = findRootElement(document);
  const size = root ? readRootSize(root) : null;
  if (size) {
    // Frames counted at the request's fps as the API wrote it, else the root's data-fps, else the default.
    const problems = findLimitProblems(size, renderRate({ fps: request.fpsGiven ? request.fpsText : null, format: request.format }, size.fps));
    if (problems.length > 0) throw new Error(`composition ${describeLimitProblems(composition, problems)}`);
  }
  // Read on the same clock as the linter reads it: seconds within the root's data-duration.
  const declaredPosterTime = root ? readPosterTime(root, parseSeconds(readAttribute(root, "data-duration"))) : null;
  return { variableFindings, declaredPosterTime };
}

/** The request's variables against what the file declares: throws when strict and they differ, else warning findings. */
function checkVariables(document: HtmlDocument, { composition, variables, strictVariables }: FileCheckRequest): Finding[] {
  if (!variables || Object.keys(variables).length === 0) return [];
  const issues = validateVariables(variables, documentVariableDeclarations(document), composition);
  if (issues.length > 0 && strictVariables) throw new Error(describeVariableIssues(issues));
  return issues.map((issue) =>
    makeFinding("variable-mismatch", composition, issue.message, {
      fixHint: issue.kind === "undeclared"
        ? `Declare it on the root: data-composition-variables='[{"id":"${issue.id}","type":"string","label":"${issue.id}","default":"..."}]', or drop the key`
        : "Pass a value of the declared type, or change the declaration",
    }),
  );
}
