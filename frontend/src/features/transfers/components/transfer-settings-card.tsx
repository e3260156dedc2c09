import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '@domain/auth-api';
import { updateProfile } from '@/shared/account/account-api';
import { useSession } from '@/lib/session/session-provider';
import { errorTextOf } from '@/i18n/error-keys';
import '@/styles/transfers.css';

/**
 * The sender's transfer settings on /dash/account: whether recipients who have not
 * downloaded get a reminder a day before a transfer expires (on unless turned off). Saved at
 * once through POST /v1/updateProfile; the session's user follows the answer.
 */
export function TransferSettingsCard({ user }: { user: SessionUser }) {
  const { t } = useTranslation('transfers');
  const { t: tApp } = useTranslation();
  const { setUser } = useSession();
  const id = useId();
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' } | { kind: 'failed'; message: string }>({
    kind: 'idle',
  });
  // The box follows the click at once; a failed save puts it back to what the account says.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const on = chosen ?? user.transferSettings?.expiryReminders !== false;

  const toggle = async (expiryReminders: boolean) => {
    setChosen(expiryReminders);
    setState({ kind: 'saving' });
    try {
      setUser(await updateProfile({ transferSettings: { expiryReminders } }));
      setState({ kind: 'saved' });
    } catch (err) {
      setChosen(null);
      const text = errorTextOf(err);
      setState({ kind: 'failed', message: tApp(text.key, text.params) });
    }
  };

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="transfer-settings">
      <h2 id={`${id}-title`}>{t('settings.title')}</h2>
      <div className="transfer-setting">
        <input
          id={`${id}-reminders`}
          type="checkbox"
          checked={on}
          aria-busy={state.kind === 'saving'}
          aria-describedby={`${id}-hint`}
          onChange={(e) => {
            if (state.kind !== 'saving') void toggle(e.currentTarget.checked);
          }}
          data-testid="setting-expiry-reminders"
        />
        <label htmlFor={`${id}-reminders`}>{t('settings.reminders')}</label>
      </div>
      <p id={`${id}-hint`} className="muted">
        {t('settings.remindersHint')}
      </p>
      <p role="status" className={state.kind === 'failed' ? 'dash-error' : 'dash-save-status'}>
        {state.kind === 'saved' ? t('settings.saved') : state.kind === 'failed' ? state.message : ''}
      </p>
    </section>
  );
}
