import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { TransferRow } from '@domain/dashboard-api';
import { dashPaths } from '@/app/dash-paths';
import { formatSize } from '@/lib/format-size';
import { formatCount } from '@/lib/format';
import { expiryPhase, expiryText, formatDay, moreFiles, recipientsSummary } from '../transfer-format';
import { useNow } from '../hooks/use-now';
import { ReviewBadge } from './review-badge';

/** The first file's name and "+n files", as the row and the modal's title read it. */
export function FilesLabel({ row }: { row: Pick<TransferRow, 'fileName' | 'fileCount'> }) {
  const { t } = useTranslation('transfers');
  const more = moreFiles(row);
  return (
    <>
      <span className="tr-file-name">{row.fileName}</span>
      {more > 0 && <span className="tr-more-files"> {t('list.moreFiles', { count: more })}</span>}
    </>
  );
}

export function RecipientsLabel({ row }: { row: Pick<TransferRow, 'sendAs' | 'recipients'> }) {
  const { t } = useTranslation('transfers');
  const summary = recipientsSummary(row);
  if (summary.kind === 'link') return <span className="tr-link-tag">{t('list.link')}</span>;
  if (summary.kind === 'one') return <span className="tr-recipient">{summary.first}</span>;
  return <span className="tr-recipient">{t('list.recipientsMore', { first: summary.first, more: summary.more })}</span>;
}

/** "Expires in 3 days" / "Expired 2 days ago", coloured by state (spec §4). */
export function ExpiryLabel({ row, now }: { row: Pick<TransferRow, 'state' | 'expiryDate'>; now: number }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const phase = expiryPhase(row, now);
  const text = expiryText(row, now, lng);
  return (
    <span className={`tr-expiry tr-expiry-${phase}`} data-state={phase}>
      {t(text.key, { when: text.when })}
      {phase === 'expiring' && <span className="pill pill-warn">{t('list.expiringBadge')}</span>}
    </span>
  );
}

/**
 * The list as a table (a real one: headers, a caption for screen readers). A row's file name is
 * the link to its TransferModal; a click anywhere on the row opens it too.
 */
export function TransferTable({ rows, search }: { rows: readonly TransferRow[]; search: string }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const navigate = useNavigate();
  const now = useNow();
  return (
    <div className="tr-table-wrap">
      <table className="tr-table" data-testid="transfers-table">
        <caption className="sr-only">{t('list.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('list.columns.files')}</th>
            <th scope="col">{t('list.columns.size')}</th>
            <th scope="col">{t('list.columns.recipients')}</th>
            <th scope="col">{t('list.columns.sent')}</th>
            <th scope="col">{t('list.columns.expiry')}</th>
            <th scope="col" className="tr-num">
              {t('list.columns.downloads')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.slug}
              className="tr-row"
              onClick={(event) => {
                // The link handles its own clicks (and modifier clicks open a tab).
                if ((event.target as HTMLElement).closest('a')) return;
                navigate(dashPaths.transfer(row.slug, search));
              }}
              data-testid="transfer-row"
              data-slug={row.slug}
            >
              <th scope="row" className="tr-cell-files">
                <Link to={dashPaths.transfer(row.slug, search)} className="tr-row-link">
                  <FilesLabel row={row} />
                </Link>
                {row.hasPassword && (
                  <span
                    className="tr-lock"
                    role="img"
                    aria-label={t('list.passwordProtected')}
                    title={t('list.passwordProtected')}
                  >
                    <LockIcon />
                  </span>
                )}
                {/* a team mate's transfer shared with the viewer */}
                {row.sharedBy && (
                  <span className="muted tr-shared-by"> · {t('list.sharedBy', { email: row.sharedBy })}</span>
                )}{' '}
                <ReviewBadge row={row} />
              </th>
              <td className="tr-nowrap">{formatSize(row.size, lng)}</td>
              <td className="tr-cell-recipients">
                <RecipientsLabel row={row} />
              </td>
              <td className="tr-nowrap">{formatDay(row.dateSent, lng)}</td>
              <td>
                <ExpiryLabel row={row} now={now} />
              </td>
              <td className="tr-num" data-testid="transfer-downloads">
                {formatCount(row.total_downloads, lng)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LockIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="14"
      height="14"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <rect x="5" y="11" width="14" height="9" rx="2" />
      <path d="M8 11V8a4 4 0 0 1 8 0v3" />
    </svg>
  );
}
