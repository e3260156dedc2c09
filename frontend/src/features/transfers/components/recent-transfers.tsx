import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TransferRow } from '@domain/dashboard-api';
import { dashPaths } from '@/app/dash-paths';
import { formatCount } from '@/lib/format';
import { formatDay } from '../transfer-format';
import { useNow } from '../hooks/use-now';
import type { ModalReturn } from './transfer-modal';
import { ExpiryLabel, FilesLabel } from './transfer-table';
import { ReviewBadge } from './review-badge';
import '@/styles/transfers.css';

/** How many transfers the dashboard home lists (the five latest). */
export const RECENT_COUNT = 5;

interface RecentTransfersProps {
  /** the list 'all' (cached, then fresh); null while nothing arrived */
  readonly rows: readonly TransferRow[] | null;
  readonly failed: boolean;
}

/** Dashboard home's five latest transfers with their downloads, each opening its TransferModal. */
export function RecentTransfers({ rows, failed }: RecentTransfersProps) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const now = useNow();
  const recent = rows?.slice(0, RECENT_COUNT) ?? null;
  const state: ModalReturn = { returnTo: dashPaths.home() };
  return (
    <section className="card tr-recent" aria-labelledby={id} data-testid="recent-transfers">
      <div className="tr-recent-head">
        <h2 id={id}>{t('recent.title')}</h2>
        <Link to={dashPaths.transfers()} data-testid="recent-view-all">
          {t('recent.viewAll')}
        </Link>
      </div>
      {recent === null ? (
        <p className="muted">{failed ? t('list.loadFailed') : t('list.loading')}</p>
      ) : recent.length === 0 ? (
        <p className="muted">{t('recent.empty')}</p>
      ) : (
        <ul className="tr-recent-list">
          {recent.map((row) => (
            <li key={row.slug} data-testid="recent-transfer" data-slug={row.slug}>
              <span>
                <Link to={dashPaths.transfer(row.slug)} state={state} className="tr-recent-link">
                  <FilesLabel row={row} />
                </Link>{' '}
                <ReviewBadge row={row} />
              </span>
              <span className="tr-recent-meta">
                <span>{formatDay(row.dateSent, lng)}</span>
                <ExpiryLabel row={row} now={now} />
              </span>
              <span className="tr-recent-downloads" data-testid="recent-downloads">
                {t('recent.downloads', {
                  count: row.total_downloads,
                  formatted: formatCount(row.total_downloads, lng),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
