import { useTranslation } from 'react-i18next';
import type { TransferRow } from '@domain/dashboard-api';
import { reviewBadges } from '@domain/review-export';

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
