// The composition readers (composition-readers.ts), imported on their first use rather than when the Worker starts,
// as the linter is (checks/load-linter.ts): a file write, a new project, a render's size and variables checks load
// them; file reads, render status and the idea board never do. Every Worker caller goes through here.
export type CompositionReaders = typeof import("./composition-readers.ts");

let loading: Promise<CompositionReaders> | null = null;

/** The readers' module, imported once per isolate. */
export function loadCompositionReaders(): Promise<CompositionReaders> {
  loading ??= import("./composition-readers.ts");
  return loading;
}
