import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SessionUser } from '@domain/auth-api';
import type { BlockReason } from '@domain/blocking';
import { paths } from '@/app/paths';
import { env } from '@/config/env';
import { formatSize } from '@/lib/format-size';
import { limitCopy, type LimitLine } from '../limit-screen';
import { usePlanName } from '@/lib/use-plan-name';

type LimitUser = Pick<SessionUser, 'role' | 'thisMonthsTransfers' | 'monthlyTransferLimit' | 'storageLimit'>;

/** Shown instead of the send form while the account may not send (spec §2 Limit screen, §8). */
export function LimitScreen({ reason, user }: { readonly reason: BlockReason; readonly user: LimitUser }) {
  const { t, i18n } = useTranslation();
  const planName = usePlanName();
  const lng = i18n.resolvedLanguage ?? 'en';
  const copy = limitCopy(reason, user, { size: (bytes) => formatSize(bytes, lng), planName });
  // Keys come from limitCopy; the typed t() only takes literal keys.
  const text = (line: LimitLine) =>
    (t as (key: string, params?: Record<string, unknown>) => string)(line.key, line.params);
  return (
    <section
      className="dash-limit"
      role="alert"
      aria-labelledby="dash-limit-title"
      data-testid="limit-screen"
      data-reason={reason}
    >
      <h2 id="dash-limit-title">{text(copy.title)}</h2>
      {copy.lines.map((line) => (
        <p key={line.key}>{text(line)}</p>
      ))}
      <Link to={paths.account({ tab: 1 })} className="btn btn-primary" data-testid="limit-upgrade">
        {t('dashboard.limit.upgrade')}
      </Link>
      <p className="dash-limit-support">
        <Trans
          i18nKey="dashboard.limit.support"
          values={{ email: env.supportEmail }}
          components={{ mail: <a href={`mailto:${env.supportEmail}`} data-testid="limit-support" /> }}
        />
      </p>
    </section>
  );
}
