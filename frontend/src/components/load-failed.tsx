/** A screen's data did not load (`useLoad`'s 'failed'): what happened, and Retry. */
export function LoadFailed({ text, retryLabel, onRetry }: { text: string; retryLabel: string; onRetry: () => void }) {
  return (
    <div className="card" role="alert">
      <p>{text}</p>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onRetry}>
        {retryLabel}
      </button>
    </div>
  );
}
