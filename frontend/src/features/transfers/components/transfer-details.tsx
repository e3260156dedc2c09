import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransferDetail } from '@domain/dashboard-api';
import { formatSize } from '@/lib/format-size';
import { formatCount } from '@/lib/format';
import { useNow } from '../hooks/use-now';
import { expiryPhase, formatDateTime, type ExpiryPhase } from '../transfer-format';
import { CopyLink } from '@/components/copy-link';
import { keyedLinkOf } from '@/shared/e2e/link-keys';
import { QrCode } from './qr-code';
import { BrandingStrip } from '@/shared/branding/branding-strip';
import { LazyPreviews } from '@/components/previews/lazy-previews';
import { fetchTransferPreviews } from '../api/transfers-api';
import { ExpiryLabel, LockIcon } from './transfer-table';
import { FilesSection } from './files-section';
import { RecipientsSection, DownloadsSection } from './transfer-sections';
import { DeliveriesSection } from './deliveries-section';

/** The tone of the state pill (styles/app.css) for each phase. */
const PHASE_PILL: Readonly<Record<ExpiryPhase, string>> = {
  active: 'pill-success',
  expiring: 'pill-warn',
  expired: 'pill-muted',
  deleted: 'pill-muted',
};

/**
 * Everything the modal shows about the transfer: link, facts, message, files, recipients,
 * downloads. `onChanged` (the sender's modal) lets the files section send new versions.
 */
export function TransferView({ detail, onChanged }: { detail: TransferDetail; onChanged?: () => Promise<void> }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const now = useNow();
  const phase = expiryPhase(detail, now);
  const ids = useId();
  // an encrypted link's key is only where it was sent from: this browser, if it was
  const keyedLink = detail.e2e === 'link' ? keyedLinkOf(detail.slug, detail.link) : null;
  return (
    <div className="tr-detail">
      <div className="tr-detail-top">
        <div className="tr-detail-main">
          {phase !== 'deleted' && <CopyLink link={keyedLink ?? detail.link} />}
          {detail.e2e && (
            <p className="qs-muted" data-testid="transfer-e2e">
              {t(
                detail.e2e === 'passphrase'
                  ? 'modal.e2e.passphrase'
                  : keyedLink
                    ? 'modal.e2e.kept'
                    : 'modal.e2e.missing',
              )}
            </p>
          )}
          <dl className="tr-facts">
            <div>
              <dt>{t('modal.facts.state')}</dt>
              <dd>
                <span className={`pill ${PHASE_PILL[phase]}`} data-testid="transfer-state">
                  {t(`modal.state.${phase}`)}
                </span>
              </dd>
            </div>
            <div>
              <dt>{t('modal.facts.sent')}</dt>
              <dd>{formatDateTime(detail.dateSent, lng)}</dd>
            </div>
            <div>
              <dt>{t('modal.facts.expiry')}</dt>
              <dd>
                {formatDateTime(detail.expiryDate, lng)}
                <br />
                <ExpiryLabel row={detail} now={now} />
              </dd>
            </div>
            <div>
              <dt>{t('modal.facts.password')}</dt>
              <dd data-testid="transfer-password">
                {detail.hasPassword ? (
                  <>
                    <LockIcon /> {t('modal.facts.passwordOn')}
                  </>
                ) : (
                  t('modal.facts.passwordOff')
                )}
              </dd>
            </div>
            <div>
              <dt>{t('modal.facts.downloads')}</dt>
              <dd data-testid="transfer-total-downloads">{formatCount(detail.total_downloads, lng)}</dd>
            </div>
            <div>
              <dt>{t('modal.facts.size')}</dt>
              <dd>
                {t('modal.filesCount', { count: detail.fileCount })} · {formatSize(detail.size, lng)}
              </dd>
            </div>
            <div>
              <dt>{t('modal.facts.sender')}</dt>
              <dd className="tr-break">
                {detail.senderName ? `${detail.senderName} <${detail.senderEmail}>` : detail.senderEmail}
              </dd>
            </div>
            {detail.forwardedFrom && (
              <div>
                <dt>{t('modal.facts.forwardedFrom')}</dt>
                <dd>{detail.forwardedFrom}</dd>
              </div>
            )}
          </dl>
        </div>
        {phase !== 'deleted' && <QrCode text={detail.link} label={t('modal.qrLabel')} />}
      </div>

      {/* the sender's branding as recipients see it */}
      {phase !== 'deleted' && <BrandingStrip />}

      <section className="tr-section" aria-labelledby={`${ids}-message`}>
        <h3 id={`${ids}-message`}>{t('modal.message')}</h3>
        {detail.message ? (
          <p className="tr-message">{detail.message}</p>
        ) : (
          <p className="muted">{t('modal.noMessage')}</p>
        )}
      </section>

      <FilesSection detail={detail} {...(onChanged ? { onChanged } : {})} />
      {/* what the recipients see and play; none once expired or deleted */}
      {(phase === 'active' || phase === 'expiring') && !detail.purged && detail.files.length > 0 && (
        <LazyPreviews
          key={detail.slug}
          files={detail.files}
          load={(signal) => fetchTransferPreviews(detail.slug, signal)}
        />
      )}
      <RecipientsSection detail={detail} />
      <DownloadsSection detail={detail} />
      {/* receipts are the sender's (and team admin's), as the modal's actions are */}
      {!detail.readOnly && <DeliveriesSection slug={detail.slug} />}
    </div>
  );
}
