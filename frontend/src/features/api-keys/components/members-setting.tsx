import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useAction } from '@/lib/use-action';
import { setMembersAllowed } from '../api-keys-api';

/** A team admin's setting: whether the team's members may create and use keys. */
export function MembersSetting({ allowed, onChange }: { allowed: boolean; onChange: (allowed: boolean) => void }) {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const ids = useId();
  const action = useAction();
  const change = (next: boolean) =>
    void action.run(async () => onChange((await setMembersAllowed(next)).membersAllowed));
  return (
    <section className="card" aria-labelledby={`${ids}-title`} data-testid="apikeys-team">
      <h2 id={`${ids}-title`}>{t('team.title')}</h2>
      <label className="ak-toggle">
        <input
          type="checkbox"
          checked={allowed}
          disabled={action.busy}
          onChange={(e) => change(e.currentTarget.checked)}
          data-testid="apikeys-members-allowed"
        />
        <span>{t('team.allow')}</span>
      </label>
      <p className="dash-hint">{allowed ? t('team.onHint') : t('team.offHint')}</p>
      <p className="dash-error" role="alert">
        {action.error ?? ''}
      </p>
    </section>
  );
}
