// Render nodes (admins only): node keys made here (the key shown once), each node's last contact, revoke.
// For anyone else GET /api/node-keys is 403 and the panel draws nothing.
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, errorText } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import { useAction } from "../lib/use-action.ts";
import { CopyButton } from "./copy-button.tsx";
import type { IssuedNodeKey, NodeKey, NodeKeyList } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";


export function NodeKeysPanel() {
  const [keys, setKeys] = useState<NodeKey[] | null>(null);
  const [allowed, setAllowed] = useState(true);
  const [name, setName] = useState("");
  const [issued, setIssued] = useState<{ name: string; key: string } | null>(null);
  const { busy, error, setError, run } = useAction();

  async function load() {
    try {
      setKeys((await api<NodeKeyList>("/api/node-keys")).nodeKeys);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 403 || err.status === 401)) setAllowed(false);
      else setError(errorText(err));
    }
  }
  useEffect(() => void load(), []);

  async function create(event: Event) {
    event.preventDefault();
    await run(async () => {
      const res = await api<IssuedNodeKey>("/api/node-keys", { method: "POST", json: { name: name.trim() } });
      setIssued({ name: res.name, key: res.key });
      setName("");
      await load();
    });
  }

  async function revoke(key: NodeKey) {
    if (!confirm(`Revoke the key of render node "${key.name}"? The node is refused from its next request on.`)) return;
    await run(async () => {
      await api(`/api/node-keys/${encodeURIComponent(key.id)}`, { method: "DELETE" });
      if (issued?.name === key.name) setIssued(null);
      await load();
    });
  }

  if (!allowed) return null;
  const command = issued ? `STUDIO_URL=${location.origin} NODE_KEY=${issued.key} npm run node` : "";
  return (
    <section class="panel" aria-labelledby="nodes-title" data-testid="node-keys">
      <h2 id="nodes-title">Render nodes</h2>
      <p class="muted">
        Keys for render nodes (you are an admin). A node key can read every user's projects: give one only to a machine you run.
      </p>
      <ErrorNote message={error} />
      <form class="create-project" onSubmit={create} aria-label="Create a node key">
        <div class="field grow">
          <label for="new-node-name">Node name</label>
          <input id="new-node-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="e.g. farm-2" />
        </div>
        <button type="submit" disabled={busy || !name.trim()}>
          {busy ? "Creating…" : "Create key"}
        </button>
      </form>
      {issued && (
        <div class="notice" role="status">
          <p>
            Key of <strong>{issued.name}</strong>, shown only now:
          </p>
          <div class="token-row">
            <code class="token" data-testid="node-key">
              {issued.key}
            </code>
            <CopyButton text={issued.key} label="Copy key" />
          </div>
          <div class="code-row">
            <pre class="curl">{command}</pre>
            <CopyButton text={command} label="Copy command" />
          </div>
        </div>
      )}
      {keys && keys.length === 0 && <p class="muted">No node keys yet.</p>}
      {keys && keys.length > 0 && (
        <div class="table-wrap">
          <table class="files" data-testid="node-key-list">
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col">Last heard from</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id}>
                  <td>{k.name}</td>
                  <td>{k.online ? "online" : k.lastSeenAt ? formatDate(k.lastSeenAt) : <span class="muted">never</span>}</td>
                  <td>{formatDate(k.createdAt)}</td>
                  <td class="actions">
                    <button type="button" class="small danger" onClick={() => revoke(k)} disabled={busy} aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
