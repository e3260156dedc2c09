import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ChangelogEntries } from '@/components/changelog-entries';
import { PageHeader } from '@/components/page-header';
import { PageLoading } from '@/components/page-loading';
import { errorTextOf } from '@/i18n/error-keys';
import { fetchChangelog } from '@/lib/changelog';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';

/** /updates (spec §2): the changelog entries GET /canny/changelog serves, newest first. */
export function UpdatesPage() {
  const { t } = useTranslation();
  usePageTitle(t('updates.title'));
  const load = useLoad(fetchChangelog, []);

  let body: ReactNode;
  if (load.state === 'loading') body = <PageLoading />;
  else if (load.state === 'failed') {
    const text = errorTextOf(load.error);
    body = (
      <p role="alert" className="changelog-error">
        {t(text.key, text.params)}
      </p>
    );
  } else body = <ChangelogEntries entries={load.data} />;

  return (
    <div className="container narrow">
      <PageHeader title={t('updates.title')} lead={t('updates.subtitle')} />
      {body}
    </div>
  );
}
