import { useTranslation } from 'react-i18next';
import { usePageTitle } from '@/lib/use-page-title';

/** Shown when a screen fails to load (e.g. a chunk that stayed unreachable after retries). */
export function RouteError() {
  const { t } = useTranslation();
  usePageTitle(t('error.title'));
  return (
    <section className="container narrow center-block" role="alert">
      <h1>{t('error.title')}</h1>
      <p className="lead">{t('error.body')}</p>
      <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
        {t('error.reload')}
      </button>
    </section>
  );
}
