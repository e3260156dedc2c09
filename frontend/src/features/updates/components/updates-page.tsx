import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChangelogEntry } from '@domain/dashboard-api';
import { ChangelogEntries } from '@/components/changelog-entries';
import { PageHeader } from '@/components/page-header';
import { PageLoading } from '@/components/page-loading';
import { errorTextOf } from '@/i18n/error-keys';
import { fetchChangelog } from '@/lib/changelog';
import { usePageTitle } from '@/lib/use-page-title';

type Load = { state: 'loading' } | { state: 'error'; error: unknown } | { state: 'ready'; entries: readonly ChangelogEntry[] };

/** /updates (spec §2): the changelog entries GET /canny/changelog serves, newest first. */
export function UpdatesPage() {
  const { t } = useTranslation();
  usePageTitle(t('updates.title'));
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    fetchChangelog(controller.signal).then(
      (entries) => setLoad({ state: 'ready', entries }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ state: 'error', error });
      },
    );
    return () => controller.abort();
  }, []);

  let body;
  if (load.state === 'loading') body = <PageLoading />;
  else if (load.state === 'error') {
    const text = errorTextOf(load.error);
    body = (
      <p role="alert" className="changelog-error">
        {t(text.key, text.params)}
      </p>
    );
  } else body = <ChangelogEntries entries={load.entries} />;

  return (
    <div className="container narrow">
      <PageHeader title={t('updates.title')} lead={t('updates.subtitle')} />
      {body}
    </div>
  );
}
