import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TabProps } from './option-tabs';

/**
 * "Verified recipients" (decision 0076), in the Sharing and Link tabs: each recipient confirms
 * their address with a mailed code before downloading. A link send names who may download:
 * addresses, or `@domain`.
 */
export function VerifiedOption({ form, onChange }: TabProps) {
  const { t } = useTranslation();
  const allowId = useId();
  const hintId = useId();
  return (
    <div className="qs-verified">
      <label className="qs-choice">
        <input
          type="checkbox"
          checked={form.verified === true}
          onChange={(e) => {
            const verified = e.target.checked;
            onChange((f) => ({ ...f, verified }));
          }}
          data-testid="send-verified"
        />
        <span>{t('send.verified.toggle')}</span>
      </label>
      {form.verified && (
        <div className="qs-verified-allow">
          <label className="qs-label" htmlFor={allowId}>
            {t(form.sendAs === 'link' ? 'send.verified.allowLink' : 'send.verified.allowEmail')}
          </label>
          <input
            id={allowId}
            className="qs-input"
            value={form.verifiedAllow ?? ''}
            placeholder="ana@example.com, @example.com"
            aria-describedby={hintId}
            onChange={(e) => {
              const verifiedAllow = e.target.value;
              onChange((f) => ({ ...f, verifiedAllow }));
            }}
            data-testid="send-verified-allow"
          />
          <p id={hintId} className="qs-muted">
            {t('send.verified.hint')}
          </p>
        </div>
      )}
    </div>
  );
}

/** "Request a review" (signed-in senders): recipients comment on the files and approve them or ask for changes. */
export function ReviewOption({ form, onChange }: TabProps) {
  const { t } = useTranslation();
  const hintId = useId();
  // a review shows the files to comment on them: SendBridge cannot show what it cannot read
  const sealed = form.e2e === true;
  return (
    <div className="qs-verified">
      <label className="qs-choice">
        <input
          type="checkbox"
          checked={form.review === true && !sealed}
          disabled={sealed}
          aria-describedby={hintId}
          onChange={(e) => {
            const review = e.target.checked;
            onChange((f) => ({ ...f, review }));
          }}
          data-testid="send-review"
        />
        <span>{t('send.review.toggle')}</span>
      </label>
      <p id={hintId} className="qs-muted">
        {sealed ? t('send.review.notEncrypted') : t('send.review.hint')}
      </p>
    </div>
  );
}
