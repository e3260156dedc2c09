import { useTranslation } from 'react-i18next';
import { Link, useLoaderData, useLocation, useParams } from 'react-router';
import { paths } from '@/app/paths';
import { PageHeader } from '@/components/page-header';
import { ROADMAP_ITEMS, ROADMAP_STATUSES, findRoadmapItem } from '@/features/roadmap/roadmap-items';
import { useNoIndex } from '@/lib/use-no-index';
import { usePageTitle } from '@/lib/use-page-title';
import type { RoadmapData } from '@/features/roadmap/roadmap-loader';
import { dashPaths } from '@/app/dash-paths';

/** /roadmap/* (public) and /dash/roadmap/* (the same screen inside the dashboard, its links staying there). */
export function RoadmapPage() {
  const { t } = useTranslation();
  const inDash = useLocation().pathname.startsWith('/dash/');
  const roadmapPath = inDash ? dashPaths.roadmap : paths.roadmap;
  const item = findRoadmapItem(useParams()['*']?.replace(/\/+$/, ''));
  usePageTitle(item ? t(`roadmap.items.${item.id}.title`) : t('roadmap.title'));
  const missing = useLoaderData<RoadmapData | undefined>()?.missing;

  if (item) {
    return (
      <div className="container narrow">
        <PageHeader
          eyebrow={t('roadmap.title')}
          title={t(`roadmap.items.${item.id}.title`)}
          lead={t(`roadmap.items.${item.id}.summary`)}
        >
          <p>
            <span className={`badge badge-status-${item.status}`}>{t(`roadmap.status.${item.status}`)}</span>
          </p>
        </PageHeader>
        <Link to={roadmapPath()} className="text-link">
          ← {t('roadmap.all')}
        </Link>
      </div>
    );
  }

  return (
    <div className="container">
      <PageHeader title={t('roadmap.title')} lead={t('roadmap.subtitle')} />
      {missing !== undefined && <MissingItemNotice path={missing} />}
      <div className="roadmap-board">
        {ROADMAP_STATUSES.map((status) => (
          <section key={status} className="roadmap-column" aria-labelledby={`status-${status}`}>
            <h2 id={`status-${status}`}>
              <span className={`status-dot status-dot-${status}`} aria-hidden="true" /> {t(`roadmap.status.${status}`)}
            </h2>
            <ul>
              {ROADMAP_ITEMS.filter((entry) => entry.status === status).map((entry) => (
                <li key={entry.id}>
                  <Link to={roadmapPath(entry.id)} className="card card-link">
                    <h3>{t(`roadmap.items.${entry.id}.title`)}</h3>
                    <p>{t(`roadmap.items.${entry.id}.summary`)}</p>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}

/** an unknown /roadmap/<item> keeps the visitor on the roadmap, says so, and stays out of search. */
function MissingItemNotice({ path }: { path: string }) {
  const { t } = useTranslation();
  useNoIndex();
  return (
    <p className="notice roadmap-notice" role="status">
      {t('roadmap.missingItem', { path })}
    </p>
  );
}
