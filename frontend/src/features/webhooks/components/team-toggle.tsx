import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAction } from '@/lib/use-action';
import { saveWebhookSettings } from '../webhooks-api';

/** A team admin's choice: may members use webhooks (PUT /webhook-settings). */
export function TeamToggle({ allowed, onSaved }: { allowed: boolean; onSaved: (allowed: boolean) => void }) {
  const { t } = useTranslation('webhooks');
  const ids = useId();
  const action = useAction();
  const [status, setStatus] = useState<string | null>(null);
  // The box follows the click at once; a refusal puts it back.
  const [checked, setChecked] = useState(allowed);
  const change = (next: boolean) => {
    setChecked(next);
    setStatus(null);
    void action.run(
      async () => {
        const saved = (await saveWebhookSettings({ membersAllowed: next })).settings.membersAllowed;
        setChecked(saved);
        onSaved(saved);
        setStatus(t('webhooks.team.saved'));
      },
      { onError: () => setChecked(!next) },
    );
  };
  return (
    <section className="card" aria-labelledby={`${ids}-h`} data-testid="webhook-team">
      <h2 id={`${ids}-h`}>{t('webhooks.team.title')}</h2>
      <div className="webhooks-check">
        <input
          id={`${ids}-t`}
          type="checkbox"
          checked={checked}
          disabled={action.busy}
          aria-describedby={`${ids}-hint`}
          onChange={(e) => change(e.currentTarget.checked)}
          data-testid="webhook-members-allowed"
        />
        <label htmlFor={`${ids}-t`}>{t('webhooks.team.toggle')}</label>
      </div>
      <p id={`${ids}-hint`} className="dash-hint">
        {t('webhooks.team.hint')}
      </p>
      <p className="webhooks-note" role="status">
        {status ?? ''}
      </p>
      <p className="dash-error" role="alert">
        {action.error ?? ''}
      </p>
    </section>
  );
}
