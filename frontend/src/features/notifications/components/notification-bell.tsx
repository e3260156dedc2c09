import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDismiss } from '@/lib/use-dismiss';
import { strokeIcon } from '@/components/icon-base';
import { Link, useLocation } from 'react-router';
import type { NotificationView } from '@domain/dashboard-api';
import { dashPaths } from '@/app/dash-paths';
import { countryName } from '@/lib/country-name';
import { badgeText } from '../badge';
import { useNotifications } from '../hooks/use-notifications';
import { relativeTime } from '../relative-time';
import '../notifications.css';

function BellIcon() {
  return (
    <svg {...strokeIcon(22)} aria-hidden="true">
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}

/**
 * One item of the panel, a link to what it is about: its title (with "New" for screen readers
 * while unread), who when known, and when, after an optional detail.
 */
function BellItem(props: {
  n: NotificationView;
  to: string;
  kind?: string;
  title: ReactNode;
  who?: ReactNode;
  detail?: ReactNode;
  newLabel: string;
  now: number;
  lng: string;
  onOpen: (n: NotificationView) => void;
}) {
  const { n } = props;
  return (
    <li>
      <Link
        to={props.to}
        className={n.read ? 'bell-item' : 'bell-item bell-item-unread'}
        onClick={() => props.onOpen(n)}
        data-testid="bell-item"
        data-kind={props.kind}
      >
        <span className="bell-item-file">
          {!n.read && <span className="sr-only">{props.newLabel} </span>}
          {props.title}
        </span>
        {props.who !== undefined && <span className="bell-item-who">{props.who}</span>}
        <span className="bell-item-meta">
          {props.detail !== undefined && (
            <>
              {props.detail}
              <span aria-hidden="true"> · </span>
            </>
          )}
          <time dateTime={new Date(n.dlDate).toISOString()}>{relativeTime(n.dlDate, props.now, props.lng)}</time>
        </span>
      </Link>
    </li>
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
  const [open, setOpen] = useState(false);
  const [clearing, setClearing] = useState(false);
  const [clearFailed, setClearFailed] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const ids = { panel: useId(), title: useId(), count: useId() };
  const badge = badgeText(unreadCount);
  const unknown = t('country.unknown');

  useEffect(() => {
    if (!open) return;
    panelRef.current?.focus();
    void refresh().catch(() => undefined);
  }, [open, refresh]);

  useDismiss(open, rootRef, (how) => {
    setOpen(false);
    if (how === 'escape') toggleRef.current?.focus();
  });

  const onClear = async () => {
    setClearing(true);
    setClearFailed(false);
    try {
      await clearAll();
    } catch {
      setClearFailed(true);
    } finally {
      setClearing(false);
    }
  };

  // Opening an item marks it read and closes the panel.
  const openItem = (n: NotificationView) => {
    if (!n.read) markRead(n._id);
    setOpen(false);
  };

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
      : latest.kind === 'request-upload' && latest.request
        ? tRequests('notifications.uploaded', { name: latest.request.senderName, title: latest.request.requestTitle })
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
        onClick={() => setOpen((o) => !o)}
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
                onClick={() => void onClear()}
                disabled={clearing}
                data-testid="bell-clear"
              >
                {t('notifications.clearAll')}
              </button>
            )}
          </div>
          {clearFailed && (
            <p className="bell-error" role="alert">
              {t('notifications.clearFailed')}
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
            <ul className="bell-list">
              {notifications.map((n) => {
                const item = { n, now, lng, newLabel: t('notifications.new'), onOpen: openItem };
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
          )}
        </div>
      )}
    </div>
  );
}
