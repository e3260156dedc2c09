import { useTranslation } from 'react-i18next';
import type { SessionUser } from '@domain/auth-api';
import { PageLoading } from '@/components/page-loading';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { useSettingsForm } from '../use-settings-form';
import { RequestDefaults } from './request-defaults';
import { TransferDefaults } from './transfer-defaults';
import '../settings.css';

/**
 * /dash/settings (spec §3 transferSettings, requestSettings): the defaults of new
 * transfers (they prefill the dashboard's quick send) and of new file requests, saved together
 * through POST /v1/updateProfile, which applies the same plan rules.
 */
export function SettingsPage() {
  const { t } = useTranslation('settings');
  const { user } = useSession();
  usePageTitle(t('settings.title'));
  if (!user) return <PageLoading />;
  return <SettingsScreen user={user} />;
}

function SettingsScreen({ user }: { user: SessionUser }) {
  const { t } = useTranslation('settings');
  const state = useSettingsForm(user);
  const { action } = state;

  return (
    <div className="container dash-page settings-page">
      <h1>{t('settings.title')}</h1>
      <p className="lead muted">{t('settings.lead')}</p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void state.submit();
        }}
      >
        <div className="settings-grid">
          <TransferDefaults state={state} role={user.role} />
          <RequestDefaults state={state} />
        </div>
        <div className="dash-form-actions">
          <button type="submit" className="btn btn-primary" disabled={action.busy} data-testid="settings-save">
            {action.busy ? t('settings.saving') : t('settings.save')}
          </button>
          <p
            className={`dash-save-status${action.error ? ' dash-error' : ''}`}
            role="status"
            data-testid="settings-status"
          >
            {state.saved ? t('settings.saved') : (action.error ?? '')}
          </p>
        </div>
      </form>
    </div>
  );
}
