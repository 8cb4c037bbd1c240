// The code editor (CodeMirror 6): HTML, CSS and JavaScript highlighting, line numbers, undo/redo and the usual
// editing keys, lint findings from the studio's linter as inline markers and gutter signs, and Ctrl/Cmd-S to save. Loaded on demand (its own chunk),
// so the rest of the dashboard stays small.
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { css } from "@codemirror/lang-css";
import { html } from "@codemirror/lang-html";
import { javascript } from "@codemirror/lang-javascript";
import { defaultHighlightStyle, syntaxHighlighting, bracketMatching, indentOnInput } from "@codemirror/language";
import { linter, lintGutter, type Diagnostic } from "@codemirror/lint";
import { EditorState, type Extension } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, highlightSpecialChars, keymap, lineNumbers } from "@codemirror/view";
import { useEffect, useRef } from "preact/hooks";
import type { LintInputFile } from "../../../core/lint/index.ts";
import { findingRange, timeAtCursor } from "../lib/finding-position.ts";

export interface CodeEditorProps {
  path: string;
  initial: string;
  /** The project's other files (text of the ones the linter reads), for linting the edited one in context. */
  others: LintInputFile[];
  onChange(text: string): void;
  onSave(): void;
  /** The composition time at the cursor (a `data-start` above it), for the preview. */
  onCursorTime(seconds: number | null): void;
  /** The findings shown, for the count next to the editor. */
  onFindings(count: { errors: number; warnings: number }): void;
}

function languageOf(path: string): Extension {
  if (/\.css$/i.test(path)) return css();
  if (/\.(m?js|json)$/i.test(path)) return javascript();
  if (/\.(html?|svg|xml)$/i.test(path)) return html();
  return [];
}

/**
 * Enter: a new line with the current line's indentation. Bound explicitly: left to the browser, a contenteditable
 * Enter is read back from the DOM, which under load has produced two line breaks.
 */
function insertNewline(view: EditorView): boolean {
  const { state } = view;
  const line = state.doc.lineAt(state.selection.main.head);
  const indent = /^[ \t]*/.exec(line.text)?.[0] ?? "";
  view.dispatch({ ...state.replaceSelection(`\n${indent}`), scrollIntoView: true, userEvent: "input" });
  return true;
}

const theme = EditorView.theme({
  "&": { fontSize: "13px", border: "1px solid var(--line)", borderRadius: "8px", background: "var(--panel)" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", minHeight: "320px", maxHeight: "70vh" },
  ".cm-gutters": { background: "var(--code-bg)", color: "var(--muted)", borderRight: "1px solid var(--line)" },
  "&.cm-focused": { outline: "2px solid var(--accent)", outlineOffset: "1px" },
});

export default function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    if (!host.current) return;
    const lintable = /\.html?$/i.test(props.path);
    // The linter (htmlparser2, acorn, css parsing) is its own chunk, loaded with the first HTML file opened.
    const source = async (view: EditorView): Promise<Diagnostic[]> => {
      const { lintEdited } = await import("./lint-in-browser.ts");
      const text = view.state.doc.toString();
      const findings = lintEdited(latest.current.path, text, latest.current.others);
      latest.current.onFindings({
        errors: findings.filter((f) => f.severity === "error").length,
        warnings: findings.filter((f) => f.severity === "warning").length,
      });
      return findings.map((f) => {
        const range = findingRange(text, f.selector);
        return {
          from: range.from,
          to: range.to,
          severity: f.severity === "error" ? "error" : f.severity === "warning" ? "warning" : "info",
          source: f.code,
          message: f.fixHint ? `${f.message}\n${f.fixHint}` : f.message,
        };
      });
    };
    // Inside a shadow root CodeMirror styles itself with adopted style sheets; in the document it would add <style>
    // elements, which the dashboard's CSP (style-src 'self') refuses.
    const shadow = host.current.shadowRoot ?? host.current.attachShadow({ mode: "open" });
    const view = new EditorView({
      parent: shadow,
      root: shadow,
      state: EditorState.create({
        doc: props.initial,
        extensions: [
          lineNumbers(),
          history(),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          EditorView.lineWrapping,
          languageOf(props.path),
          theme,
          keymap.of([
            { key: "Enter", run: insertNewline },
            {
              key: "Mod-s",
              preventDefault: true,
              run: () => {
                latest.current.onSave();
                return true;
              },
            },
            // After ours: Mod-z / Mod-Shift-z (Mod-y), selection and line commands, Tab indents.
            ...historyKeymap,
            ...defaultKeymap,
            indentWithTab,
          ]),
          EditorView.contentAttributes.of({ "aria-label": `Code of ${props.path}` }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
            if (update.docChanged || update.selectionSet) {
              const time = timeAtCursor(update.state.doc.toString(), update.state.selection.main.head);
              latest.current.onCursorTime(time);
            }
          }),
          ...(lintable ? [lintGutter(), linter(source, { delay: 300 })] : []),
        ],
      }),
    });
    return () => view.destroy();
  }, [props.path]);

  return <div class="code-editor" ref={host} data-testid="code-editor" />;
}
