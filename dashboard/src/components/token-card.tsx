// The personal API token: shown, copied, rotated; plus a curl line that works as is.
import { useEffect, useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { formatBytes } from "../lib/format.ts";
import type { Identity, RotatedToken } from "../lib/types.ts";
import { CopyButton } from "./copy-button.tsx";
import { ErrorNote } from "./error-note.tsx";
import { useAction } from "../lib/use-action.ts";

/** `onRotated`: the token was rotated, which disconnected every OAuth-connected app (connected-apps.tsx reloads). */
export function TokenCard({ onRotated }: { onRotated?: () => void } = {}) {
  const [identity, setIdentity] = useState<Identity | null>(null);
  const { busy, error, setError, run } = useAction();
  const [reveal, setReveal] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    api<Identity>("/api/me").then(setIdentity, (err) => setError(errorText(err)));
  }, []);

  async function rotate() {
    if (!confirm("Rotate your token? The current token stops working at once, for every agent that uses it, and every connected app is disconnected.")) return;
    await run(async () => {
      const res = await api<RotatedToken>("/api/me/token/rotate", { method: "POST" });
      setIdentity((prev) => (prev ? { ...prev, token: res.token, curl: res.curl } : prev));
      setReveal(true);
      setNotice("New token issued. The old one no longer works, and connected apps were disconnected.");
      onRotated?.();
    });
  }

  const token = identity?.token ?? "";
  const shown = reveal ? token : token ? `${token.slice(0, 8)}${"•".repeat(Math.max(8, token.length - 12))}${token.slice(-4)}` : "…";

  return (
    <section class="panel" aria-labelledby="token-title">
      <h2 id="token-title">Your API token</h2>
      <p class="muted">
        Agents use this token to work in your studio: send it as <code>Authorization: Bearer …</code>. Keep it secret.
      </p>
      <ErrorNote message={error} />
      <div class="token-row">
        <code class="token" data-testid="token" data-token={token} aria-label="Personal token">
          {shown}
        </code>
        <button type="button" class="small ghost" onClick={() => setReveal(!reveal)} aria-pressed={reveal} disabled={!token}>
          {reveal ? "Hide" : "Show"}
        </button>
        <CopyButton text={token} label="Copy token" />
        <button type="button" class="small danger" onClick={rotate} disabled={busy || !token}>
          {busy ? "Rotating…" : "Rotate"}
        </button>
      </div>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {identity && (
        <>
          <h3>Try it</h3>
          <div class="code-row">
            <pre class="curl" data-testid="curl">
              {reveal ? identity.curl : identity.curl.replace(token, "$STUDIO_TOKEN")}
            </pre>
            <CopyButton text={identity.curl} label="Copy curl" />
          </div>
          <p class="muted">
            The full reference with your token filled in: <a href="/api/docs">{identity.docsUrl}</a>
          </p>
          {identity.storage && (
            <p class="muted" data-testid="storage">
              Storage: {formatBytes(identity.storage.used)} of {formatBytes(identity.storage.limit)} used (project files and renders){" "}
              <meter min={0} max={identity.storage.limit} high={identity.storage.limit * 0.9} value={identity.storage.used} aria-label="Storage used" />
            </p>
          )}
        </>
      )}
    </section>
  );
}
