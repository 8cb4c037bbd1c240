// What the Worker reads out of a composition's HTML (its id and duration, its root's sizes, its declared variables)
// and the starter page: all of it needs the HTML parser (htmlparser2 with the entities tables), about 15-20 ms of
// CPU to load. Only load-composition-readers.ts imports this module, on first use, so the Worker's startup does not
// pay for it and the requests that never read HTML (most of them) never do.
export { readCompositionMeta, starterComposition } from "../../core/composition/index.ts";
export { describeLimitProblems, findLimitProblems, readCompositionSize } from "../../core/composition/size-limits.ts";
export { readVariableDeclarations } from "../../core/composition/read-variable-declarations.ts";
export { readCompositionCostFacts } from "../../core/composition/read-cost-facts.ts";
