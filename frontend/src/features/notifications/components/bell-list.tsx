import { useTranslation } from 'react-i18next';
import type { NotificationView, ReviewNotice } from '@domain/dashboard-api';
import { dashPaths } from '@/app/dash-paths';
import { BellItem } from './bell-item';

/** The panel's items: an infected file removed, a download limit used up, an upload to a file request, review activity, or a download. */
export function BellList({
  notifications,
  now,
  lng,
  describe,
  onOpen,
}: {
  notifications: readonly NotificationView[];
  now: number;
  lng: string;
  describe: (n: NotificationView) => { country: string; who: string };
  onOpen: (n: NotificationView) => void;
}) {
  const { t } = useTranslation('insights');
  const { t: tRequests } = useTranslation('requests');
  return (
    <ul className="bell-list">
      {notifications.map((n) => {
        const item = { n, now, lng, newLabel: t('notifications.new'), onOpen };
        // ---- a file of the user's transfer was found infected and removed ----
        if (n.kind === 'scan-failed') {
          return (
            <BellItem
              key={n._id}
              {...item}
              to={dashPaths.transfer(n.slug)}
              kind="scan-failed"
              title={t('notifications.scanFailed', { file: n.fileName, finding: n.scan?.finding ?? '' })}
            />
          );
        }
        // ---- a download limit of the user's transfer was used up ----
        if (n.kind === 'download-limit' && n.downloadLimit) {
          return (
            <BellItem
              key={n._id}
              {...item}
              to={dashPaths.transfer(n.slug)}
              kind="download-limit"
              title={t('notifications.limitReached', { file: n.fileName, limit: n.downloadLimit.limit })}
              {...(n.downloadLimit.recipient ? { who: n.downloadLimit.recipient } : {})}
            />
          );
        }
        // ---- file requests: someone uploaded to one of the user's requests ----
        if (n.kind === 'request-upload' && n.request) {
          const notice = n.request;
          return (
            <BellItem
              key={n._id}
              {...item}
              to={dashPaths.request(notice.requestId)}
              kind="request-upload"
              title={tRequests('notifications.uploaded', {
                name: notice.senderName,
                title: notice.requestTitle,
              })}
              who={notice.senderEmail}
              detail={<span>{tRequests('notifications.uploadedFiles', { count: notice.fileCount })}</span>}
            />
          );
        }
        // ---- review: recipients commented on, approved or asked changes to a transfer ----
        if (n.kind === 'review' && n.review) {
          return <ReviewBellItem key={n._id} {...item} review={n.review} />;
        }
        const { country, who } = describe(n);
        return (
          <BellItem
            key={n._id}
            {...item}
            to={dashPaths.transfer(n.slug)}
            title={
              <>
                {n.fileName}
                {n.dlOrigin === 'zip' && <span className="badge bell-zip">{t('notifications.zip')}</span>}
              </>
            }
            who={who}
            detail={<span data-testid="bell-item-country">{country}</span>}
          />
        );
      })}
    </ul>
  );
}

/** A review burst: the transfer and what happened, opening the modal at its review (texts: the review's catalogue, loaded with the first one shown). */
function ReviewBellItem(props: Omit<Parameters<typeof BellItem>[0], 'to' | 'title'> & { review: ReviewNotice }) {
  const { t } = useTranslation('sender-review');
  const { review: r, ...item } = props;
  const parts = [
    r.comments > 0 && t('bell.comments', { count: r.comments }),
    r.approvals > 0 && t('bell.approvals', { count: r.approvals }),
    r.changesRequested > 0 && t('bell.changes', { count: r.changesRequested }),
  ].filter(Boolean);
  return (
    <BellItem
      {...item}
      to={`${dashPaths.transfer(item.n.slug)}#review`}
      kind="review"
      title={t('bell.title', { file: item.n.fileName })}
      {...(parts.length > 0 ? { detail: <span>{parts.join(' · ')}</span> } : {})}
    />
  );
}
