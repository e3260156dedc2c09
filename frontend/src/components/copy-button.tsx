import { useCopy } from '@/lib/use-copy';

/** A small button that copies a value and says so; its texts come from the caller's catalogue. */
export function CopyButton({
  value,
  text,
  copiedText,
  ariaLabel,
  testId,
}: {
  value: string;
  text: string;
  copiedText: string;
  ariaLabel?: string;
  testId?: string;
}) {
  const { copied, copy } = useCopy();
  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm"
      onClick={() => void copy(value)}
      aria-label={ariaLabel}
      data-testid={testId}
    >
      {copied ? copiedText : text}
    </button>
  );
}
