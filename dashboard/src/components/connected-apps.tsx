// Connected apps: the MCP clients (Claude, ChatGPT, editors) the person allowed through OAuth, with what each may
// do, and a Disconnect button that revokes the app's tokens. Rotating the personal token disconnects all of them
// (token-card.tsx tells the card to reload through `version`).
import { useEffect, useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import { useAction } from "../lib/use-action.ts";
import type { ConnectedApp, ConnectedAppList } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";


export function ConnectedApps({ version = 0 }: { version?: number }) {
  const [apps, setApps] = useState<ConnectedApp[] | null>(null);
  const { busy, error, setError, run } = useAction();

  useEffect(() => {
    api<ConnectedAppList>("/api/me/apps").then((res) => setApps(res.apps), (err) => setError(errorText(err)));
  }, [version]);

  async function disconnect(app: ConnectedApp) {
    if (!confirm(`Disconnect ${app.clientName}? It stops working at once and must ask you again to reconnect.`)) return;
    await run(async () => {
      await api(`/api/me/apps/${encodeURIComponent(app.id)}`, { method: "DELETE" });
      setApps((prev) => (prev ?? []).filter((a) => a.id !== app.id));
    });
  }

  return (
    <section class="panel" aria-labelledby="apps-title" data-testid="connected-apps">
      <h2 id="apps-title">Connected apps</h2>
      <p class="muted">
        MCP clients you allowed to use your studio through OAuth (they connect to <code>/mcp</code> and ask you here). Rotating your
        token disconnects every one of them.
      </p>
      <ErrorNote message={error} />
      {apps === null && !error && <p class="muted">Loading…</p>}
      {apps?.length === 0 && <p class="muted">No apps are connected.</p>}
      {apps && apps.length > 0 && (
        <ul class="connected-apps">
          {apps.map((app) => (
            <li key={app.id} data-testid="connected-app">
              <strong>{app.clientName}</strong> <span class="muted">→ {app.redirectHost}</span>
              <div class="muted small-text">
                {app.scopes.join(", ") || "no permissions"} · connected {formatDate(app.createdAt)}
              </div>
              <button type="button" class="small danger" onClick={() => disconnect(app)} disabled={busy}>
                Disconnect
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
