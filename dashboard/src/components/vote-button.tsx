// A vote toggle with its count; pressed while the person's vote is counted.
import { useState } from "preact/hooks";
import { api, errorText } from "../lib/api.ts";

interface Props {
  path: string;
  votes: number;
  voted: boolean;
  label: string;
  onVoted: (result: { votes: number; voted: boolean }) => void;
  onError: (message: string) => void;
}

function readVote(value: unknown, fallback: { votes: number; voted: boolean }): { votes: number; voted: boolean } {
  if (typeof value !== "object" || value === null) return fallback;
  const v = value as Record<string, unknown>;
  const inner = typeof v.idea === "object" && v.idea !== null ? (v.idea as Record<string, unknown>) : v;
  const votes = [v.votes, inner.votes, v.voteCount, inner.voteCount, v.vote_count, inner.vote_count, v.score].find(
    (n): n is number => typeof n === "number",
  );
  const voted = [v.voted, v.hasVoted, inner.voted].find((b): b is boolean => typeof b === "boolean");
  return { votes: votes ?? fallback.votes, voted: voted ?? fallback.voted };
}

export function VoteButton({ path, votes, voted, label, onVoted, onError }: Props) {
  const [busy, setBusy] = useState(false);
  async function toggle() {
    setBusy(true);
    try {
      const guess = { votes: votes + (voted ? -1 : 1), voted: !voted };
      onVoted(readVote(await api(path, { method: "POST" }), guess));
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
