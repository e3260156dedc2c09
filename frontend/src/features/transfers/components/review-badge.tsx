import { useTranslation } from 'react-i18next';
import type { TransferRow } from '@domain/dashboard-api';
import type { ReviewSummary } from '@domain/review';

/** Which badges a row shows (null: review off). */
export interface ReviewBadges {
  readonly approved: boolean;
  readonly changesRequested: boolean;
  readonly unread: number;
}

/**
 * "Approved" once something is approved and no request for changes is open; "changes asked"
 * while one is; the unread comments. Here, not in the domain's review modules: the dashboard's
 * first load carries this and nothing else of the review.
 */
export function reviewBadges(summary: ReviewSummary | undefined): ReviewBadges | null {
  if (!summary) return null;
  const changesRequested = summary.changesRequested > 0;
  return {
    approved: !changesRequested && (summary.transferApproved || summary.approved > 0),
    changesRequested,
    unread: summary.unread,
  };
}

/** The list's compact review state: approved or changes asked, and unread comments. */
export function ReviewBadge({ row }: { row: Pick<TransferRow, 'review'> }) {
  const { t } = useTranslation('transfers');
  const badges = reviewBadges(row.review);
  if (!badges || (!badges.approved && !badges.changesRequested && badges.unread === 0)) return null;
  return (
    <span className="tr-review" data-testid="review-badge">
      <span className="sr-only">{t('list.review.label')} </span>
      {badges.approved && <span className="pill pill-success">{t('list.review.approved')}</span>}
      {badges.changesRequested && <span className="pill pill-warn">{t('list.review.changes')}</span>}
      {badges.unread > 0 && (
        <span className="pill pill-muted" data-testid="review-badge-unread">
          {t('list.review.unread', { count: badges.unread })}
        </span>
      )}
    </span>
  );
}
