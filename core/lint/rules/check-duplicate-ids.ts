// Duplicate ids make selectors and getElementById hit the wrong element; duplicate composition ids make two
// compositions fight over one window.__timelines slot.
import { describeElement } from "../../html/describe-element.ts";
import { hasAttribute, readAttribute } from "../../html/parse-html.ts";
import { createFinding } from "../create-finding.ts";
import type { CompositionFile } from "../load-composition.ts";
import type { ProjectContext } from "../project-context.ts";
import type { LintFinding } from "../types.ts";

export function checkDuplicateElementIds(file: CompositionFile): LintFinding[] {
  const counts = new Map<string, number>();
  for (const element of file.elements) {
    const id = readAttribute(element, "id")?.trim();
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return [...counts].filter(([, count]) => count > 1).map(([id, count]) =>
    createFinding("duplicate_element_id", file.path, `id="${id}" is used by ${count} elements in ${file.path}; ids must be unique.`, {
      selector: `#${id}`,
      fixHint: `Rename all but one, e.g. id="${id}-2", and update the CSS and scripts that refer to them.`,
    }),
  );
}

/**
 * A composition id is declared by an element without data-composition-src (a root or an inline composition) and
 * used by a host. Each id may be declared once and hosted once across the project.
 */
export function checkDuplicateCompositionIds(project: ProjectContext): LintFinding[] {
  const declared = new Map<string, string[]>();
  const hosted = new Map<string, string[]>();
  for (const composition of project.compositions) {
    for (const element of composition.elements) {
      const id = readAttribute(element, "data-composition-id")?.trim();
      if (!id) continue;
      const table = hasAttribute(element, "data-composition-src") ? hosted : declared;
      table.set(id, [...(table.get(id) ?? []), `${composition.path} (${describeElement(element)})`]);
    }
  }
  const findings: LintFinding[] = [];
  for (const [kind, table] of [["declared by", declared], ["hosted by", hosted]] as const) {
    for (const [id, places] of table) {
      if (places.length < 2) continue;
      findings.push(createFinding("duplicate_composition_id", places[0]?.split(" ")[0] ?? "index.html", `data-composition-id="${id}" is ${kind} ${places.length} elements: ${places.join(", ")}. Timelines are keyed by id, so only one of them can animate.`, {
        selector: `[data-composition-id="${id}"]`,
        fixHint: `Give each composition its own id (e.g. "${id}-2") and register its timeline under that id.`,
      }));
    }
  }
  return findings;
}
