// The composition linter (core/lint: HTML, CSS and JavaScript parsers and every rule), loaded on its first use
// rather than when the Worker starts: building it is about a third of the Worker's startup CPU, and most requests
// (file reads and writes, render status, the idea board) never lint. Every Worker caller goes through here.
export type Linter = typeof import("../../core/lint/index.ts");

let loading: Promise<Linter> | null = null;

/** The linter module, imported once per isolate. */
export function loadLinter(): Promise<Linter> {
  loading ??= import("../../core/lint/index.ts");
  return loading;
}
