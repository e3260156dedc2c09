import { useTranslation } from 'react-i18next';
import { formatSize } from '@/lib/format-size';
import { storageUsage } from '../storage-usage';

/**
 * Storage used against the plan's allowance (spec §4): ok, warning from 90 %, full from 100 %.
 * `note: false` leaves the warning text out where a limit screen already says it.
 */
export function StorageMeter({
  used,
  limit,
  note = true,
}: {
  readonly used: number;
  readonly limit: number;
  readonly note?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const usage = storageUsage(used, limit);
  const usedText = t('dashboard.storage.used', {
    used: formatSize(usage.used, lng),
    limit: formatSize(usage.limit, lng),
  });
  return (
    <div className={`dash-storage dash-storage-${usage.state}`}>
      <div className="dash-storage-figures">
        <span>{usedText}</span>
        <span className="dash-storage-percent">{t('dashboard.storage.percent', { percent: usage.percent })}</span>
      </div>
      <div
        className="dash-storage-bar"
        role="meter"
        aria-label={t('dashboard.storage.title')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(100, usage.percent)}
        aria-valuetext={usedText}
        data-testid="storage-bar"
        data-state={usage.state}
      >
        <span className="dash-storage-fill" style={{ width: `${usage.fill}%` }} />
      </div>
      {note && usage.state === 'warning' && (
        <p className="dash-storage-note" role="status">
          {t('dashboard.storage.warning', { remaining: formatSize(usage.remaining, lng) })}
        </p>
      )}
      {note && usage.state === 'full' && (
        <p className="dash-storage-note" role="status">
          <strong>{t('dashboard.limit.storageFull')}</strong> {t('dashboard.limit.storageFullHint')}
        </p>
      )}
    </div>
  );
}
