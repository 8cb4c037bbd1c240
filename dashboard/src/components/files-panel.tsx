// A project's files: list, upload by drag and drop (raw PUT), edit text files, delete.
import { useRef, useState } from "preact/hooks";
import { FileEditor } from "./file-editor.tsx";
import { api, contentFile, errorText, filePath } from "../lib/api.ts";
import { formatBytes, isTextPath } from "../lib/format.ts";
import type { FileEntry } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";

interface Props {
  slug: string;
  /** The project's capability link on the content origin: files open there, not on the dashboard's origin. */
  contentUrl: string;
  files: FileEntry[];
  onChange: () => Promise<void>;
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

  // Snapshots have their own tab; renders are not project files at all.
  const visible = files.filter((f) => !f.path.endsWith("/") && f.path !== "snapshots" && !f.path.startsWith("snapshots/"));
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
      {editing && <FileEditor key={editing} slug={slug} path={editing} files={files} contentUrl={contentUrl} onClose={() => setEditing(null)} />}
    </section>
  );
}
