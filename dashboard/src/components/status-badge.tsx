// A render status as a coloured word.
const TONES: Record<string, string> = { done: "ok", failed: "bad", cancelled: "warn", none: "muted" };

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge ${TONES[status] ?? "info"}`}>{status}</span>;
}
