import { useTranslation } from 'react-i18next';
import type { SessionUser } from '@domain/auth-api';
import { formatCount } from '@/lib/format';
import { StorageMeter } from './storage-meter';

type UsageUser = Pick<SessionUser, 'storageUsed' | 'storageLimit' | 'thisMonthsTransfers' | 'monthlyTransferLimit'>;

/** Storage bar and this month's transfers against the plan's cap, if it has one. */
interface UsageSummaryProps {
  readonly user: UsageUser;
  /** fresher figures than the session's (POST /folderSize) */
  readonly storage?: { readonly used: number; readonly limit: number };
  /** show the storage warning text (off where the limit screen says it) */
  readonly storageNote?: boolean;
}

export function UsageSummary({ user, storage, storageNote = true }: UsageSummaryProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const count = formatCount(user.thisMonthsTransfers, lng);
  return (
    <div className="dash-usage">
      <h3 className="dash-usage-label">{t('dashboard.storage.title')}</h3>
      <StorageMeter
        used={storage?.used ?? user.storageUsed}
        limit={storage?.limit ?? user.storageLimit}
        note={storageNote}
      />
      <dl className="dash-facts">
        <div>
          <dt>{t('dashboard.usage.transfers')}</dt>
          <dd data-testid="transfers-this-month">
            {user.monthlyTransferLimit === null
              ? t('dashboard.usage.transfersUnlimited', { count })
              : t('dashboard.usage.transfersOf', { count, limit: formatCount(user.monthlyTransferLimit, lng) })}
          </dd>
        </div>
      </dl>
    </div>
  );
}
