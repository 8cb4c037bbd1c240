// An error message from the API, announced to screen readers.
export function ErrorNote({ message, onRetry }: { message: string | null; onRetry?: () => void }) {
  if (!message) return null;
  return (
    <div class="error-note" role="alert">
      <span>{message}</span>
      {onRetry && (
        <button type="button" class="small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
