import { lazy, Suspense, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { NotificationView } from '@domain/dashboard-api';
import { strokeIcon } from '@/components/icon-base';
import { countryName } from '@/lib/country-name';
import { useAction } from '@/lib/use-action';
import { badgeText } from '../badge';
import { useBellPanel } from '../hooks/use-bell-panel';
import { useNotifications } from '../hooks/use-notifications';
import { importWithRetry } from '@/lib/import-with-retry';
import '../notifications.css';

/** The panel's items arrive with its first opening (hovering or focusing the bell asks early): no first load carries them. */
const loadList = () => importWithRetry(() => import('./bell-list')).then((m) => ({ default: m.BellList }));
const BellList = lazy(loadList);
const preloadList = () => void loadList().catch(() => undefined);

function BellIcon() {
  return (
    <svg {...strokeIcon(22)} aria-hidden="true">
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

/**
 * The bell of the top navigation (spec §2 Notifications panel), loaded as its own chunk for
 * signed-in users only: the unread badge ('9+' above 9), a panel listing downloads of the
 * user's transfers, 'Clear all alerts', and each item opening its TransferModal.
 */
export function NotificationBell() {
  const { t, i18n } = useTranslation('insights');
  const { t: tRequests } = useTranslation('requests');
  const lng = i18n.resolvedLanguage ?? 'en';
  // Only the dashboard keeps polling: a public page's network goes idle once it has loaded.
  const { pathname } = useLocation();
  const { notifications, unreadCount, status, arrived, refresh, markRead, clearAll } = useNotifications(
    pathname === '/dash' || pathname.startsWith('/dash/'),
  );
  const { open, toggle, rootRef, toggleRef, panelRef, openItem } = useBellPanel(refresh, markRead);
  // One text for any failure: the list stays as it was.
  const clear = useAction({ errorText: () => t('notifications.clearFailed') });
  const ids = { panel: useId(), title: useId(), count: useId() };
  const badge = badgeText(unreadCount);
  const unknown = t('country.unknown');

  const describe = (n: NotificationView) => ({
    country: countryName(n.dlCountryCode, lng, unknown),
    who: n.receiverEmail
      ? t('notifications.downloadedBy', { email: n.receiverEmail })
      : t('notifications.downloadedLink'),
  });

  const latest = arrived[0];
  const announcement = !latest
    ? ''
    : latest.kind === 'scan-failed'
      ? t('notifications.scanFailed', { file: latest.fileName, finding: latest.scan?.finding ?? '' })
      : latest.kind === 'download-limit' && latest.downloadLimit
        ? t('notifications.limitReached', { file: latest.fileName, limit: latest.downloadLimit.limit })
        : latest.kind === 'request-upload' && latest.request
          ? tRequests('notifications.uploaded', { name: latest.request.senderName, title: latest.request.requestTitle })
          : latest.kind === 'review'
            ? t('notifications.reviewAnnounce', { file: latest.fileName })
            : t('notifications.announce', { file: latest.fileName, country: describe(latest).country });
  const now = Date.now();

  return (
    <div className="bell" ref={rootRef}>
      <button
        ref={toggleRef}
        type="button"
        className="bell-toggle"
        aria-label={t('notifications.label')}
        aria-describedby={badge ? ids.count : undefined}
        aria-expanded={open}
        aria-controls={ids.panel}
        aria-haspopup="dialog"
        onClick={toggle}
        onPointerEnter={preloadList}
        onFocus={preloadList}
        data-testid="nav-bell"
      >
        <BellIcon />
      </button>
      {/* Beside the button, not in it: its name stays exactly 'Notifications'; the count is its description. */}
      {badge && (
        <span className="bell-badge" aria-hidden="true" data-testid="bell-badge">
          {badge}
        </span>
      )}
      {badge && (
        <span id={ids.count} className="sr-only">
          {t('notifications.unread', { n: badge })}
        </span>
      )}
      <div className="sr-only" aria-live="polite" role="status">
        {announcement}
      </div>
      {open && (
        <div
          ref={panelRef}
          id={ids.panel}
          className="bell-panel"
          role="dialog"
          aria-labelledby={ids.title}
          tabIndex={-1}
          data-testid="bell-panel"
        >
          <div className="panel-head bell-panel-head">
            <h2 id={ids.title}>{t('notifications.title')}</h2>
            {notifications.length > 0 && (
              <button
                type="button"
                className="bell-clear"
                onClick={() => void clear.run(clearAll)}
                disabled={clear.busy}
                data-testid="bell-clear"
              >
                {t('notifications.clearAll')}
              </button>
            )}
          </div>
          {clear.error && (
            <p className="bell-error" role="alert">
              {clear.error}
            </p>
          )}
          {status === 'error' && notifications.length === 0 ? (
            <p className="bell-error" role="alert">
              {t('notifications.loadFailed')}
            </p>
          ) : notifications.length === 0 ? (
            <div className="bell-empty" data-testid="bell-empty">
              <p className="bell-empty-title">{t('notifications.emptyTitle')}</p>
              <p>{t('notifications.emptyBody')}</p>
            </div>
          ) : (
            <Suspense fallback={null}>
              <BellList notifications={notifications} now={now} lng={lng} describe={describe} onOpen={openItem} />
            </Suspense>
          )}
        </div>
      )}
    </div>
  );
}
