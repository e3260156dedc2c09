import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { OwnBranding } from '@domain/branding-api';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { fetchOwnBranding, saveBranding } from '@/shared/branding/branding-api';
import { errorTextOf } from '@/i18n/error-keys';
import { usePageTitle } from '@/lib/use-page-title';
import '@/features/branding/branding.css';

/** /dash/account/powered-by (spec §2): 'Powered by SendBridge' on download and request pages, removable on business and above. */
export function PoweredByPage() {
  const { t } = useTranslation('branding');
  const { t: tApp } = useTranslation();
  usePageTitle(t('poweredBy.title'));
  const [branding, setBranding] = useState<OwnBranding | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fail = (err: unknown) => {
    const text = errorTextOf(err);
    setError(tApp(text.key, text.params));
  };
  useEffect(() => {
    fetchOwnBranding().then(setBranding, fail);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (!branding) return error ? <p className="container dash-page form-error" role="alert">{error}</p> : <PageLoading />;

  async function toggle(show: boolean) {
    setBusy(true);
    setError(null);
    try {
      setBranding(await saveBranding({ showPoweredBy: show }));
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  }

  const allowed = branding.canRemovePoweredBy && branding.editable;
  return (
    <div className="container dash-page branding-page">
      <h1>{t('poweredBy.title')}</h1>
      <p className="lead muted">{t('poweredBy.lead')}</p>
      <section className="card">
        <label className="settings-check">
          <input type="checkbox" checked={branding.showPoweredBy} disabled={!allowed || busy} onChange={(e) => void toggle(e.currentTarget.checked)} data-testid="powered-by-toggle" />
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
