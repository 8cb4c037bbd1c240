// Editing one project file: the code editor (a lazily loaded chunk) beside a live preview, the play page on the
// content origin at the time being edited, reloaded on every save. Ctrl/Cmd-S or the button saves.
import type { ComponentType } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { LintInputFile } from "../../../core/lint/index.ts";
import { api, errorText, filePath, readText } from "../lib/api.ts";
import { useAction } from "../lib/use-action.ts";
import type { FileEntry } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";

import type { CodeEditorProps } from "../editor/code-editor.tsx";
import { logWhy } from "../lib/log-why.ts";

// The editor chunk (CodeMirror), fetched once, the first time a file is opened.
let editorChunk: Promise<ComponentType<CodeEditorProps>> | null = null;
const loadEditor = () => (editorChunk ??= import("../editor/code-editor.tsx").then((m) => m.default));

/** The files the linter reads as text (the Worker's lint reads the same kinds). */
const LINT_TEXT = /\.(html?|css|js|mjs|json)$/i;


/** Another file the lint could not read: it is linted as present without its text (as a binary file is). */
function unreadForLint(path: string, err: unknown): undefined {
  logWhy(`${path} could not be read for the in-editor lint; it is linted without its text`, err);
  return undefined;
}

interface Props {
  slug: string;
  path: string;
  files: FileEntry[];
  /** The project's play page on the content origin (a capability link). */
  contentUrl: string;
  onClose(): void;
}

export function FileEditor({ slug, path, files, contentUrl, onClose }: Props) {
  const [initial, setInitial] = useState<string | null>(null);
  const [others, setOthers] = useState<LintInputFile[] | null>(null);
  const text = useRef("");
  const { busy, error, setError, run } = useAction();
  const [state, setState] = useState<"clean" | "dirty" | "saved">("clean");
  const [findings, setFindings] = useState<{ errors: number; warnings: number } | null>(null);
  const [time, setTime] = useState(0);
  const [reloads, setReloads] = useState(0);
  const [CodeEditor, setCodeEditor] = useState<ComponentType<CodeEditorProps> | null>(null);
  useEffect(() => {
    loadEditor().then(
      (component) => setCodeEditor(() => component),
      (err: unknown) => setError(`the editor could not be loaded: ${errorText(err)}`),
    );
  }, []);

  useEffect(() => {
    let gone = false;
    const lintFiles = files.filter((f) => f.type !== "directory" && !f.path.startsWith("snapshots/"));
    Promise.all([
      readText(slug, path),
      Promise.all(
        lintFiles.map(async (f) => (LINT_TEXT.test(f.path) && f.path !== path ? { path: f.path, size: f.size, text: await readText(slug, f.path).catch((err: unknown) => unreadForLint(f.path, err)) } : { path: f.path, size: f.size })),
      ),
    ]).then(
      ([own, rest]) => {
        if (gone) return;
        text.current = own;
        setOthers(rest);
        setInitial(own);
      },
      (err: unknown) => setError(errorText(err)),
    );
    return () => void (gone = true);
    // The file list changes as files are written; the editor keeps the context it opened with.
  }, [slug, path]);

  async function save() {
    await run(async () => {
      await api(filePath(slug, path), { method: "PUT", body: text.current, headers: { "Content-Type": "text/plain; charset=utf-8" } });
      setState("saved");
      setReloads((n) => n + 1);
    });
  }

  const previewable = /\.(html?|css|js|mjs|json)$/i.test(path);
  return (
    <section class="editor" aria-label={`Edit ${path}`} data-testid="file-editor">
      <div class="editor-head">
        <h3>
          Editing <code>{path}</code>
        </h3>
        <div class="row">
          {findings && (
            <span class={`badge ${findings.errors ? "bad" : findings.warnings ? "warn" : "ok"}`} data-testid="editor-lint">
              {findings.errors} {findings.errors === 1 ? "error" : "errors"}, {findings.warnings} {findings.warnings === 1 ? "warning" : "warnings"}
            </span>
          )}
          <span class="muted" role="status" data-testid="editor-state">
            {busy ? "Saving…" : state === "saved" ? "Saved." : state === "dirty" ? "Unsaved changes" : ""}
          </span>
          <button type="button" onClick={() => void save()} disabled={busy || initial === null} title="Save (Ctrl/Cmd-S)">
            Save
          </button>
          <button type="button" class="ghost" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <ErrorNote message={error} />
      <div class={`editor-body${previewable ? " with-preview" : ""}`}>
        <div class="editor-code">
          {initial === null || others === null || !CodeEditor ? (
            <p class="muted">Loading {path}…</p>
          ) : (
            <CodeEditor
              path={path}
              initial={initial}
              others={others}
              onChange={(value) => {
                text.current = value;
                setState("dirty");
              }}
              onSave={() => void save()}
              onCursorTime={(t) => t !== null && setTime(t)}
              onFindings={setFindings}
            />
          )}
        </div>
        {previewable && (
          <div class="editor-preview">
            <div class="row">
              <label for="preview-time">Preview at</label>
              <input
                id="preview-time"
                type="number"
                min="0"
                step="0.1"
                value={time}
                onChange={(e) => setTime(Math.max(0, Number(e.currentTarget.value) || 0))}
            />
              <span class="muted">s, following the cursor's data-start; saving reloads it</span>
            </div>
            {/* The play page runs the author's code: only ever on the content origin, in a sandboxed frame. */}
            <iframe
              key={reloads}
              class="preview-frame"
              title={`Preview of ${slug} at ${time} s`}
              src={`${contentUrl}#t=${time}`}
              sandbox="allow-scripts"
              data-testid="editor-preview"
            />
          </div>
        )}
      </div>
    </section>
  );
}
