// Short-lived notices in a corner (a finished render with its download). One live region, so screen readers
// announce each as it comes.
import type { ComponentChildren } from "preact";

export interface ToastItem {
  id: number;
  kind: "success" | "error" | "info";
  body: ComponentChildren;
}

export function Toasts({ items, onDismiss }: { items: ToastItem[]; onDismiss: (id: number) => void }) {
  return (
    <div class="toasts" role="status" aria-live="polite" data-testid="toasts">
      {items.map((t) => (
        <div key={t.id} class={`toast ${t.kind}`} data-testid="toast">
          <div class="toast-body">{t.body}</div>
          <button type="button" class="ghost small" aria-label="Dismiss" onClick={() => onDismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
