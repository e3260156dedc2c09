import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { E2E_PASSPHRASE_MIN_LENGTH, type SenderContext } from '@/shared/send-form/send-state';
import type { TabProps } from './option-tabs';

/**
 * "End-to-end encrypted" (docs/e2e-format.md), in the Link and Sharing tabs. Guests see it off and
 * why: their files are scanned for malware, which needs to read them. A link send carries the key
 * in the link; an email send takes a passphrase that recipients are told another way.
 */
export function E2eOption({
  form,
  sender,
  problem,
  fieldRef,
  onChange,
}: TabProps & { sender: SenderContext; problem?: string; fieldRef?: RefObject<HTMLDivElement | null> }) {
  const { t } = useTranslation();
  const noteId = useId();
  const passId = useId();
  const confirmId = useId();
  const on = sender.signedIn && form.e2e === true;
  const byLink = form.sendAs === 'link';
  return (
    <div ref={fieldRef} className="qs-verified" data-testid="e2e-option">
      <label className="qs-choice">
        <input
          type="checkbox"
          checked={on}
          disabled={!sender.signedIn}
          aria-describedby={noteId}
          onChange={(e) => {
            const e2e = e.target.checked;
            onChange((f) => ({ ...f, e2e }));
          }}
          data-testid="send-e2e"
        />
        <span>{t('send.e2e.toggle')}</span>
      </label>
      <p id={noteId} className="qs-muted">
        {!sender.signedIn ? t('send.e2e.guestOnly') : byLink ? t('send.e2e.linkNote') : t('send.e2e.passphraseHint')}
      </p>
      {on && !byLink && (
        <div className="qs-verified-allow">
          <label className="qs-label" htmlFor={passId}>
            {t('send.e2e.passphrase')}
          </label>
          <input
            id={passId}
            className="qs-input"
            type="password"
            autoComplete="new-password"
            minLength={E2E_PASSPHRASE_MIN_LENGTH}
            value={form.e2ePassphrase ?? ''}
            aria-invalid={problem ? true : undefined}
            aria-describedby={noteId}
            onChange={(e) => {
              const e2ePassphrase = e.target.value;
              onChange((f) => ({ ...f, e2ePassphrase }));
            }}
            data-testid="send-e2e-passphrase"
          />
          <label className="qs-label" htmlFor={confirmId}>
            {t('send.e2e.confirm')}
          </label>
          <input
            id={confirmId}
            className="qs-input"
            type="password"
            autoComplete="new-password"
            value={form.e2ePassphraseConfirm ?? ''}
            aria-invalid={problem ? true : undefined}
            onChange={(e) => {
              const e2ePassphraseConfirm = e.target.value;
              onChange((f) => ({ ...f, e2ePassphraseConfirm }));
            }}
            data-testid="send-e2e-confirm"
          />
          {problem && (
            <p className="qs-field-error" role="alert" data-testid="send-e2e-problem">
              {problem}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
