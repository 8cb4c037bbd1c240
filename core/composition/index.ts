// Public surface of the composition readers and the starter template.
export { readCompositionMeta, type CompositionMeta } from "./read-composition-meta.ts";
export { listSubCompositions, type SubCompositionHost } from "./list-sub-compositions.ts";
export { starterComposition, type StarterOptions } from "./starter.ts";
