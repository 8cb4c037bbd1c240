// Bot keys (GET/POST /api/bots, DELETE /api/bots/:id): a person's idea-board bots. A new key is shown once, with a
// copy button; listed keys show only their name and date; revoking kills the key at once.
import { useEffect, useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import { formatDate } from "../lib/format.ts";
import { useAction } from "../lib/use-action.ts";
import { CopyButton } from "./copy-button.tsx";
import type { Bot, BotList, IssuedBot } from "../lib/types.ts";
import { ErrorNote } from "./error-note.tsx";

export function BotKeys() {
  const [bots, setBots] = useState<Bot[] | null>(null);
  const [name, setName] = useState("");
  const [issued, setIssued] = useState<{ name: string; key: string } | null>(null);
  const { busy, error, setError, run } = useAction();

  async function load() {
    try {
      setBots((await api<BotList>("/api/bots")).bots);
    } catch (err) {
      setError(errorText(err));
    }
  }
  useEffect(() => void load(), []);

  async function create(event: Event) {
    event.preventDefault();
    await run(async () => {
      const res = await api<IssuedBot>("/api/bots", { method: "POST", json: { name } });
      setIssued({ name: res.bot.name, key: res.key });
      setName("");
      await load();
    });
  }

  async function revoke(bot: Bot) {
    if (!confirm(`Revoke the key of ${bot.name}? The bot stops working at once.`)) return;
    await run(async () => {
      await api(`/api/bots/${encodeURIComponent(bot.id)}`, { method: "DELETE" });
      if (issued?.name === bot.name) setIssued(null);
      await load();
    });
  }

  return (
    <section class="panel" aria-labelledby="bots-title" data-testid="bot-keys">
      <h2 id="bots-title">Your bots</h2>
      <p class="muted">
        A bot posts, votes and comments on the board with its own key (<code>Authorization: Bearer stb_…</code>) and is marked as a bot. Its votes are
        yours: one person, one vote.
      </p>
      <form class="inline-form" onSubmit={create} aria-label="Create a bot key">
        <label for="bot-name">Bot name</label>
        <input id="bot-name" required maxLength={60} value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="e.g. Daily idea bot" />
        <button type="submit" disabled={busy || !name.trim()}>
          Create key
        </button>
      </form>
      <ErrorNote message={error} />
      {issued && (
        <div class="notice stack" role="status" data-testid="bot-key-issued">
          <span>
            Key for <strong>{issued.name}</strong>, shown only this once:
          </span>
          <code class="token" data-key={issued.key}>
            {issued.key}
          </code>
          <CopyButton text={issued.key} label="Copy key" />
        </div>
      )}
      {bots?.length === 0 && <p class="muted">No bots yet.</p>}
      <ul class="bot-list" data-testid="bot-list">
        {bots?.map((bot) => (
          <li key={bot.id}>
            <span>
              <strong>{bot.name}</strong> <span class="muted small-text">since {formatDate(bot.createdAt)}</span>
            </span>
            <button type="button" class="small ghost danger" onClick={() => revoke(bot)} aria-label={`Revoke ${bot.name}`}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
