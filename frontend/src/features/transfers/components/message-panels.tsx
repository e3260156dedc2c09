import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { remindRecipients, resendTransfer } from '../api/transfers-api';
import { notDownloaded } from '../transfer-format';
import { PanelForm, type PanelProps } from './panel-form';

export function ResendPanel({ detail, run, busy, onCancel }: PanelProps) {
  const { t } = useTranslation('transfers');
  const all = detail.recipientsDetail.map((r) => r.email);
  const [chosen, setChosen] = useState<readonly string[]>(all);
  const toggle = (email: string) =>
    setChosen((c) => (c.includes(email) ? c.filter((e) => e !== email) : [...c, email]));
  return (
    <PanelForm
      title={t('resend.title')}
      submit={t('resend.submit')}
      busy={busy}
      canSubmit={chosen.length > 0}
      onCancel={onCancel}
      onSubmit={() =>
        void run(async () => {
          const everyone = chosen.length === all.length;
          const { sent } = await resendTransfer({ slug: detail.slug, ...(everyone ? {} : { emails: [...chosen] }) });
          return t('resend.done', { count: sent.length });
        })
      }
    >
      <p className="muted">{t('resend.lead')}</p>
      <fieldset className="tr-fieldset">
        <legend className="tr-label">{t('resend.who')}</legend>
        <label className="tr-choice">
          <input
            type="checkbox"
            checked={chosen.length === all.length}
            onChange={(e) => setChosen(e.target.checked ? all : [])}
          />
          <span>{t('resend.all')}</span>
        </label>
        <ul className="tr-choices">
          {all.map((email) => (
            <li key={email}>
              <label className="tr-choice">
                <input type="checkbox" checked={chosen.includes(email)} onChange={() => toggle(email)} />
                <span className="tr-break">{email}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {chosen.length === 0 && <p className="tr-field-error">{t('resend.noneChosen')}</p>}
    </PanelForm>
  );
}

export function RemindPanel({ detail, run, busy, onCancel }: PanelProps) {
  const { t } = useTranslation('transfers');
  const waiting = notDownloaded(detail.recipientsDetail);
  return (
    <PanelForm
      title={t('remind.title')}
      submit={t('remind.submit')}
      busy={busy}
      canSubmit={waiting.length > 0}
      onCancel={onCancel}
      onSubmit={() =>
        void run(async () => {
          const { sent } = await remindRecipients(detail.slug);
          return t('remind.done', { count: sent.length });
        })
      }
    >
      <p>{t('remind.lead', { count: waiting.length })}</p>
      <ul className="tr-plain-list">
        {waiting.map((email) => (
          <li key={email} className="tr-break">
            {email}
          </li>
        ))}
      </ul>
    </PanelForm>
  );
}
