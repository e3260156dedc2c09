import { CUSTOM_EXPIRY_MAX_AHEAD_MS, CUSTOM_EXPIRY_MIN_AHEAD_MS } from '@domain/expiry';
import { ceilToMinute, fromLocalInputValue, toLocalInputValue } from '../datetime-local';

interface CustomExpiryInputProps {
  readonly id: string;
  readonly className: string;
  /** the chosen date (epoch ms), or null while none is */
  readonly value: number | null;
  readonly now: number;
  readonly invalid: boolean;
  onChange(value: number | null): void;
  readonly testId?: string;
}

/**
 * The 'Custom Date' picker (spec §4, §5): a local date and time from 30 minutes to one year
 * ahead. The send form's options and the TransferModal's expiry share it.
 */
export function CustomExpiryInput({ id, className, value, now, invalid, onChange, testId }: CustomExpiryInputProps) {
  return (
    <input
      id={id}
      className={className}
      type="datetime-local"
      min={toLocalInputValue(ceilToMinute(now + CUSTOM_EXPIRY_MIN_AHEAD_MS))}
      max={toLocalInputValue(now + CUSTOM_EXPIRY_MAX_AHEAD_MS)}
      value={value === null ? '' : toLocalInputValue(value)}
      aria-invalid={invalid ? true : undefined}
      onChange={(e) => onChange(fromLocalInputValue(e.target.value))}
      {...(testId ? { 'data-testid': testId } : {})}
    />
  );
}
