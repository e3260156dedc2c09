import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactView } from '@domain/auth-api';
import type { ForwardResponse } from '@domain/dashboard-api';
import { MESSAGE_MAX_LENGTH } from '@domain/validation';
import { fetchContacts } from '@/shared/account/account-api';
import { RecipientsField } from '@/shared/send-form/components/recipients-field';
import {
  commitRecipients,
  initialForm,
  removeRecipient,
  typeRecipients,
  withDraftCommitted,
  type SendForm,
} from '@/shared/send-form/send-state';
import { useSession } from '@/lib/session/session-provider';
import { forwardTransfer } from '../api/transfers-api';
import { CopyLink } from '@/components/copy-link';
import { PanelForm, type PanelProps } from './panel-form';
import '@/shared/send-form/quick-send.css';

/**
 * Forward: the files go to new recipients, or to a new link, as a server-side copy
 * under a new slug. The recipient box is the send form's own (Enter, comma, paste; contacts).
 */
export function ForwardPanel({ detail, run, busy, onCancel }: PanelProps) {
  const { t, i18n } = useTranslation('transfers');
  const { user } = useSession();
  const role = user?.role ?? 'free';
  const name = useId();
  const messageId = useId();
  const [form, setForm] = useState<SendForm>(() => initialForm(user?.email ?? ''));
  const [contacts, setContacts] = useState<readonly ContactView[]>([]);
  const [forwarded, setForwarded] = useState<ForwardResponse | null>(null);
  const [tried, setTried] = useState(false);

  useEffect(() => {
    let live = true;
    fetchContacts()
      .then((list) => {
        if (live) setContacts(list);
      })
      // Suggestions are a convenience: the box works without them.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const ready = withDraftCommitted(form, role);
  const missing = form.sendAs === 'email' && ready.recipients.length === 0;

  if (forwarded) {
    return (
      <div data-testid="forward-done">
        <p>{t('forward.done')}</p>
        <CopyLink link={forwarded.link} label={t('forward.newLink')} testId="forward-link" />
        {forwarded.copying ? (
          <p className="muted" data-testid="forward-copying">
            {t('forward.copying')}
          </p>
        ) : (
          forwarded.recipients.length > 0 && (
            <p className="muted">{t('forward.mailed', { emails: forwarded.recipients.join(', ') })}</p>
          )
        )}
        <div className="tr-panel-buttons">
          <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
            {t('modal.done')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <PanelForm
      title={t('forward.title')}
      submit={t('forward.submit')}
      busy={busy}
      onCancel={onCancel}
      onSubmit={() => {
        setTried(true);
        if (missing || ready.recipientInvalid) return;
        setForm(ready);
        void run(
          async () => {
            const result = await forwardTransfer({
              slug: detail.slug,
              sendAs: ready.sendAs,
              emailTo: ready.sendAs === 'email' ? ready.recipients.map((email) => ({ email })) : [],
              message: ready.message,
              lang: i18n.resolvedLanguage ?? 'en',
            });
            setForwarded(result);
            return t('forward.notice');
          },
          { keepOpen: true },
        );
      }}
    >
      <p className="muted">{t('forward.lead')}</p>
      <div role="radiogroup" aria-label={t('forward.as')} className="tr-choices-row">
        {(['email', 'link'] as const).map((mode) => (
          <label key={mode} className="tr-choice">
            <input
              type="radio"
              name={name}
              checked={form.sendAs === mode}
              onChange={() => setForm((f) => ({ ...f, sendAs: mode }))}
            />
            <span>{t(`forward.${mode}`)}</span>
          </label>
        ))}
      </div>
      {form.sendAs === 'email' && (
        <RecipientsField
          recipients={form.recipients}
          draft={form.recipientDraft}
          invalid={form.recipientInvalid}
          problem={tried && missing ? t('forward.needRecipients') : undefined}
          contacts={contacts}
          onType={(text) => setForm((f) => typeRecipients(f, text, role).form)}
          onCommit={(text) => setForm((f) => commitRecipients(f, text, role).form)}
          onRemove={(email) => setForm((f) => removeRecipient(f, email))}
        />
      )}
      <div className="tr-field">
        <label className="tr-label" htmlFor={messageId}>
          {t('forward.message')}
        </label>
        <textarea
          id={messageId}
          className="field-input tr-textarea"
          maxLength={MESSAGE_MAX_LENGTH}
          rows={3}
          value={form.message}
          onChange={(e) => setForm((f) => ({ ...f, message: e.target.value.slice(0, MESSAGE_MAX_LENGTH) }))}
          data-testid="forward-message"
        />
        <p className="muted tr-hint">
          {form.message.length} / {MESSAGE_MAX_LENGTH}
        </p>
      </div>
    </PanelForm>
  );
}
