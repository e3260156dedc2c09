import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/page-header';
import { CHANGELOG } from '@/features/updates/changelog';
import { formatDate } from '@/lib/format';
import { usePageTitle } from '@/lib/use-page-title';

export function UpdatesPage() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  usePageTitle(t('updates.title'));

  return (
    <div className="container narrow">
      <PageHeader title={t('updates.title')} lead={t('updates.subtitle')} />
      <ol className="changelog">
        {CHANGELOG.map((entry) => (
          <li key={entry.id} className="changelog-entry" id={entry.id}>
            <div className="changelog-meta">
              <time dateTime={entry.created}>{formatDate(entry.created, lng)}</time>
              {entry.types.map((type) => (
                <span key={type} className={`badge badge-${type}`}>
                  {t(`updates.types.${type}`)}
                </span>
              ))}
            </div>
            <h2>{t(`updates.entries.${entry.id}.title`)}</h2>
            <p>{t(`updates.entries.${entry.id}.details`)}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
