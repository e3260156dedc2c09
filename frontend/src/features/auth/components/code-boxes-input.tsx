import { useEffect, useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CODE_LENGTH,
  backspaceInBox,
  completeCode,
  pasteCode,
  typeIntoBox,
  type CodeDigits,
  type CodeEdit,
} from '../code-boxes';

interface CodeBoxesInputProps {
  readonly digits: CodeDigits;
  onChange(digits: CodeDigits): void;
  /** called once each time the fifth digit completes the code (spec §5: auto-submit) */
  onComplete(code: string): void;
  readonly disabled?: boolean;
  readonly invalid?: boolean;
  /** id of the element describing a problem */
  readonly describedBy?: string;
  readonly labelledBy: string;
  readonly autoFocus?: boolean;
}

/** Five one-digit boxes (spec §2, §5). data-testid: code-box-0 .. code-box-4. */
export function CodeBoxesInput({
  digits,
  onChange,
  onComplete,
  disabled,
  invalid,
  describedBy,
  labelledBy,
  autoFocus,
}: CodeBoxesInputProps) {
  const { t } = useTranslation();
  const boxes = useRef<(HTMLInputElement | null)[]>([]);

  // Only on mount: afterwards focus follows typing.
  const focusOnMount = useRef(autoFocus);
  useEffect(() => {
    if (!focusOnMount.current) return;
    const firstEmpty = digits.indexOf('');
    boxes.current[firstEmpty === -1 ? 0 : firstEmpty]?.focus();
  }, []);

  // An emptied code (after a wrong one) starts again at the first box.
  const wasEmpty = useRef(digits.every((d) => d === ''));
  useEffect(() => {
    const empty = digits.every((d) => d === '');
    if (empty && !wasEmpty.current) boxes.current[0]?.focus();
    wasEmpty.current = empty;
  }, [digits]);

  const apply = (edit: CodeEdit) => {
    const before = completeCode(digits);
    onChange(edit.digits);
    boxes.current[edit.focus]?.focus();
    const after = completeCode(edit.digits);
    if (after !== null && after !== before) onComplete(after);
  };

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && digits[index] === '') {
      event.preventDefault();
      apply(backspaceInBox(digits, index));
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      boxes.current[index - 1]?.focus();
    } else if (event.key === 'ArrowRight' && index < CODE_LENGTH - 1) {
      event.preventDefault();
      boxes.current[index + 1]?.focus();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const edit = pasteCode(event.clipboardData.getData('text'));
    if (edit) apply(edit);
  };

  return (
    <fieldset
      className={`auth-code${invalid ? ' auth-code-invalid' : ''}`}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
    >
      {digits.map((digit, index) => (
        <input
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed row of five; the index is each box's identity
          key={index}
          ref={(el) => {
            boxes.current[index] = el;
          }}
          className="auth-code-box"
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          aria-label={t('auth.register.digit', { n: index + 1 })}
          aria-invalid={invalid ? true : undefined}
          value={digit}
          disabled={disabled}
          onChange={(event) => apply(typeIntoBox(digits, index, event.target.value))}
          onKeyDown={onKeyDown(index)}
          onPaste={onPaste}
          onFocus={(event) => event.target.select()}
          data-testid={`code-box-${index}`}
        />
      ))}
    </fieldset>
  );
}
