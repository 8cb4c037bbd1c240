// A vote toggle with its count; pressed while the person's vote is counted.
import { useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";
import type { VoteAnswer } from "../lib/ideas.ts";

interface Props {
  path: string;
  votes: number;
  voted: boolean;
  label: string;
  onVoted: (result: { votes: number; voted: boolean }) => void;
  onError: (message: string) => void;
}

export function VoteButton({ path, votes, voted, label, onVoted, onError }: Props) {
  const [busy, setBusy] = useState(false);
  async function toggle() {
    setBusy(true);
    try {
      const answer = await api<VoteAnswer>(path, { method: "POST" });
      onVoted({ votes: answer.votes, voted: answer.voted });
    } catch (err) {
      onError(errorText(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <button
      type="button"
      class={`vote${voted ? " voted" : ""}`}
      aria-pressed={voted}
      aria-label={`${voted ? "Remove your vote for" : "Vote for"} ${label}`}
      onClick={toggle}
      disabled={busy}
      data-testid="vote"
    >
      <span aria-hidden="true">▲</span>
      <span class="vote-count">{votes}</span>
    </button>
  );
}
