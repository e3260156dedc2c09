import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { OwnBranding } from '@domain/branding-api';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { fetchOwnBranding, saveBranding } from '@/shared/branding/branding-api';
import { useAction } from '@/lib/use-action';
import { usePageTitle } from '@/lib/use-page-title';
import '@/features/branding/branding.css';

/** /dash/account/powered-by (spec §2): 'Powered by SendBridge' on download and request pages, removable on business and above. */
export function PoweredByPage() {
  const { t } = useTranslation('branding');
  usePageTitle(t('poweredBy.title'));
  const [branding, setBranding] = useState<OwnBranding | null>(null);
  // the load and the toggle say a refusal in the same place
  const action = useAction();
  const { error, run } = action;
  useEffect(() => {
    void run(async () => setBranding(await fetchOwnBranding()));
  }, [run]);
  if (!branding)
    return error ? (
      <p className="container dash-page form-error" role="alert">
        {error}
      </p>
    ) : (
      <PageLoading />
    );

  const toggle = (show: boolean) => void run(async () => setBranding(await saveBranding({ showPoweredBy: show })));

  const allowed = branding.canRemovePoweredBy && branding.editable;
  return (
    <div className="container dash-page branding-page">
      <h1>{t('poweredBy.title')}</h1>
      <p className="lead muted">{t('poweredBy.lead')}</p>
      <section className="card">
        <label className="settings-check">
          <input
            type="checkbox"
            checked={branding.showPoweredBy}
            disabled={!allowed || action.busy}
            onChange={(e) => toggle(e.currentTarget.checked)}
            data-testid="powered-by-toggle"
          />
          {t('poweredBy.show')}
        </label>
        {!branding.showPoweredBy && <p className="muted">{t('poweredBy.hidden')}</p>}
        {!branding.editable && <p className="branding-note">{t('poweredBy.memberNote')}</p>}
        {branding.editable && !branding.canRemovePoweredBy && (
          <p className="branding-note" data-testid="powered-by-upgrade">
            {t('poweredBy.upgrade')}{' '}
            <Link className="text-link" to={paths.pricing()}>
              {t('poweredBy.upgradeCta')}
            </Link>
          </p>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </section>
    </div>
  );
}
