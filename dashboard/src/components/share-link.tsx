// "Share": a read-only link on the content origin (POST /api/projects/:slug/share) that works for seven days
// without signing in, for the project's playback page or one of its renders. Never the person's token.
import { useState } from "preact/hooks";
import { api } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import type { ShareLink } from "../lib/types.ts";
import { useAction } from "../lib/use-action.ts";
import { CopyButton } from "./copy-button.tsx";
import { ErrorNote } from "./error-note.tsx";

const SEVEN_DAYS = 7 * 24 * 60 * 60;

export function ShareButton({ slug, render, label }: { slug: string; render?: string; label: string }) {
  const [link, setLink] = useState<ShareLink | null>(null);
  const { busy, error, run } = useAction();

  async function share() {
    await run(async () => {
      const json = render ? { render, expiresIn: SEVEN_DAYS } : { expiresIn: SEVEN_DAYS };
      setLink(await api<ShareLink>(`/api/projects/${encodeURIComponent(slug)}/share`, { method: "POST", json }));
    });
  }

  return (
    <span class="share">
      <button type="button" class="small ghost" onClick={share} disabled={busy} aria-label={label}>
        {busy ? "Sharing…" : "Share"}
      </button>
      {link && (
        <span class="row" data-testid="share-link">
          <input readOnly value={link.url} aria-label="Share link" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={link.url} label="Copy" />
          <span class="muted">read-only, until {formatDate(link.expiresAt)}</span>
        </span>
      )}
      <ErrorNote message={error} />
    </span>
  );
}
