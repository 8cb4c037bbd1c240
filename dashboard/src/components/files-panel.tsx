// A project's files: list, upload by drag and drop (raw PUT), edit text files, delete.
import { useRef, useState } from "preact/hooks";
import { api, contentFile, errorText, filePath } from "../lib/api.ts";
import { formatBytes, isTextPath } from "../lib/format.ts";
import type { FileEntry } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";
import { useAction } from "../lib/use-action.ts";

interface Props {
  slug: string;
  /** The project's capability link on the content origin: files open there, not on the dashboard's origin. */
  contentUrl: string;
  files: FileEntry[];
  onChange: () => Promise<void>;
}

function FileEditor({ slug, path, onClose, onSaved }: { slug: string; path: string; onClose: () => void; onSaved: () => Promise<void> }) {
  const [text, setText] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const [saved, setSaved] = useState(false);
  const loaded = useRef(false);
  if (!loaded.current) {
    loaded.current = true;
    fetch(filePath(slug, path), { credentials: "same-origin" })
      .then(async (res) => {
        if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { error?: string } | null)?.error ?? `could not open ${path}`);
        setText(await res.text());
      })
      .catch((err: unknown) => setError(errorText(err)));
  }

  async function save(event: Event) {
    event.preventDefault();
    if (text === null) return;
    await run(async () => {
      await api(filePath(slug, path), { method: "PUT", body: text, headers: { "Content-Type": "text/plain; charset=utf-8" } });
      setSaved(true);
      await onSaved();
    });
  }

  return (
    <form class="editor" onSubmit={save} aria-label={`Edit ${path}`}>
      <div class="editor-head">
        <label for="file-editor">
          Editing <code>{path}</code>
        </label>
        <div class="row">
          <button type="submit" disabled={busy || text === null}>
            {busy ? "Saving…" : "Save"}
          </button>
          <button type="button" class="ghost" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <ErrorNote message={error} />
      {saved && !busy && (
        <p class="notice" role="status">
          Saved.
        </p>
      )}
      <textarea
        id="file-editor"
        spellcheck={false}
        value={text ?? "Loading…"}
        disabled={text === null}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setSaved(false);
        }}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key === "s") {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
      />
    </form>
  );
}

export function FilesPanel({ slug, contentUrl, files, onChange }: Props) {
  const [folder, setFolder] = useState("assets/");
  const [dragging, setDragging] = useState(false);
  const [uploads, setUploads] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  async function upload(list: FileList | File[]) {
    setError(null);
    const chosen = Array.from(list);
    if (!chosen.length) return;
    const base = folder.trim().replace(/^\/+|\/+$/g, "");
    const prefix = base ? `${base}/` : "";
    for (const file of chosen) {
      const path = `${prefix}${file.name}`;
      setUploads((u) => [...u, path]);
      try {
        await api(filePath(slug, path), { method: "PUT", body: file, headers: { "Content-Type": file.type || "application/octet-stream" } });
      } catch (err) {
        setError(`${path}: ${errorText(err)}`);
      } finally {
        setUploads((u) => u.filter((p) => p !== path));
      }
    }
    await onChange();
  }

  async function remove(path: string) {
    if (!confirm(`Delete ${path}?`)) return;
    setError(null);
    try {
      await api(filePath(slug, path), { method: "DELETE" });
      if (editing === path) setEditing(null);
      await onChange();
    } catch (err) {
      setError(errorText(err));
    }
  }

  const visible = files.filter((f) => !f.path.endsWith("/"));
  const isDir = (f: FileEntry) => f.type === "directory";

  return (
    <section class="panel" aria-labelledby="files-title">
      <h2 id="files-title">Files</h2>
      <div
        class={`dropzone${dragging ? " dragging" : ""}`}
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          if (e.dataTransfer?.files) void upload(e.dataTransfer.files);
        }}
      >
        <p>
          <strong>Drop files here</strong> to upload them into the folder below, or{" "}
          <button type="button" class="linklike" onClick={() => input.current?.click()}>
            choose files
          </button>
          .
        </p>
        <div class="inline-form">
          <label for="upload-folder">Folder</label>
          <input id="upload-folder" value={folder} onInput={(e) => setFolder(e.currentTarget.value)} placeholder="assets/" />
          <input
            ref={input}
            id="upload-input"
            class="visually-hidden"
            type="file"
            multiple
            aria-label="Choose files to upload"
            onChange={(e) => {
              const list = e.currentTarget.files;
              if (list) void upload(list).then(() => (e.currentTarget.value = ""));
            }}
          />
        </div>
        {uploads.length > 0 && (
          <p role="status" class="muted">
            Uploading {uploads.join(", ")}…
          </p>
        )}
      </div>
      <ErrorNote message={error} />
      <div class="table-wrap">
        <table class="files" data-testid="files">
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col" class="num">
                Size
              </th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {visible.map((f) => (
              <tr key={f.path}>
                <td>
                  {isDir(f) ? (
                    <span class="dir">{f.path}/</span>
                  ) : (
                    <a href={contentFile(contentUrl, f.path)} target="_blank" rel="noopener">
                      {f.path}
                    </a>
                  )}
                </td>
                <td class="num">{isDir(f) ? <span class="muted">folder</span> : formatBytes(f.size)}</td>
                <td class="actions">
                  {!isDir(f) && isTextPath(f.path) && (
                    <button type="button" class="small ghost" onClick={() => setEditing(f.path)} aria-label={`Edit ${f.path}`}>
                      Edit
                    </button>
                  )}
                  {!isDir(f) && (
                    <a class="button small ghost" href={`${filePath(slug, f.path)}?download`} download aria-label={`Download ${f.path}`}>
                      Download
                    </a>
                  )}
                  {f.path !== "index.html" && (
                    <button type="button" class="small ghost danger" onClick={() => remove(f.path)} aria-label={`Delete ${f.path}`}>
                      Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {editing && <FileEditor key={editing} slug={slug} path={editing} onClose={() => setEditing(null)} onSaved={onChange} />}
    </section>
  );
}
