import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import type { TransferDetail } from '@domain/dashboard-api';
import { dashPaths } from '@/app/dash-paths';
import { formatSize } from '@/lib/format-size';
import { ApiError } from '@/lib/api';
import { errorTextOf } from '@/i18n/error-keys';
import { formatCount } from '@/lib/format';
import { useNow } from '../hooks/use-now';
import { useTransferDetail } from '../hooks/use-transfer-detail';
import { transferListCache } from '../list-cache';
import { countryName, expiryPhase, formatDateTime, groupByFolder, recipientStatus, type ExpiryPhase } from '../transfer-format';
import { CopyLink } from '@/components/copy-link';
import { QrCode } from './qr-code';
import { BrandingStrip } from '@/shared/branding/branding-strip';
import { TransferActions, type ActionNotice } from './transfer-actions';
import { LazyPreviews } from '@/components/previews/lazy-previews';
import { TableHead } from '@/components/table-head';
import { fetchTransferPreviews } from '../api/transfers-api';
import { ExpiryLabel, FilesLabel, LockIcon } from './transfer-table';

/** Where closing the modal goes: the page it was opened from, or the list with its filter. */
export interface ModalReturn {
  readonly returnTo?: string;
}

/**
 * The TransferModal (spec §2; route id TransferModal, /dash/transfers/:slug), a child of the
 * list so the list stays behind it. A modal <dialog>: the browser traps focus, Escape closes;
 * the close button and the backdrop do too, all returning to where it was opened from.
 */
export function TransferModal() {
  const { slug = '' } = useParams();
  const { t } = useTranslation('transfers');
  const navigate = useNavigate();
  const location = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { detail, loading, error, reload } = useTransferDetail(slug);
  const [notice, setNotice] = useState<ActionNotice | null>(null);

  useEffect(() => {
    const element = dialog.current;
    // No close() on cleanup: StrictMode's trial unmount would fire close and navigate away.
    if (element && !element.open) element.showModal();
  }, []);

  // Another transfer (a notification clicked while open) starts without the last one's message.
  useEffect(() => setNotice(null), [slug]);

  const returnTo = (location.state as ModalReturn | null)?.returnTo;
  const close = useCallback(() => {
    navigate(returnTo ?? dashPaths.transfers(location.search));
  }, [navigate, returnTo, location.search]);

  const onDeleted = useCallback(() => {
    transferListCache().invalidate({ removedSlug: slug });
    navigate(returnTo ?? dashPaths.transfers(location.search), { state: { notice: 'deleted' } });
  }, [navigate, returnTo, location.search, slug]);

  const notFound = error instanceof ApiError && (error.status === 404 || error.status === 403);
  return (
    <dialog
      ref={dialog}
      className="dash-modal tr-modal"
      aria-labelledby={titleId}
      aria-busy={loading || undefined}
      onClose={close}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) dialog.current?.close();
      }}
      data-testid="transfer-modal"
    >
      <div className="dash-modal-body tr-modal-body">
        <button type="button" className="dash-modal-close" aria-label={t('modal.close')} onClick={() => dialog.current?.close()} data-testid="transfer-modal-close">
          <span aria-hidden="true">×</span>
        </button>
        {detail ? (
          <>
            <h2 id={titleId} className="tr-modal-title">
              <FilesLabel row={detail} />
            </h2>
            <TransferView detail={detail} />
            {detail.readOnly ? (
              // a team mate's shared transfer: view, download and copy the link only
              <p className="tr-notice" role="note" data-testid="transfer-shared-note">
                {t('modal.sharedReadOnly', { email: detail.senderEmail })}{' '}
                <a href={detail.link} target="_blank" rel="noopener noreferrer">
                  {t('modal.openDownload')}
                </a>
              </p>
            ) : (
              <TransferActions
                detail={detail}
                notice={notice}
                onNotice={setNotice}
                onChanged={async () => {
                  transferListCache().invalidate();
                  await reload();
                }}
                onDeleted={onDeleted}
              />
            )}
          </>
        ) : (
          <>
            <h2 id={titleId} className="tr-modal-title">
              {t('modal.heading')}
            </h2>
            {loading ? (
              <p className="tr-empty" role="status">
                {t('modal.loading')}
              </p>
            ) : notFound ? (
              <p className="tr-notice tr-notice-error" role="alert" data-testid="transfer-not-found">
                {t('modal.notFound')}
              </p>
            ) : (
              <LoadFailed error={error} onRetry={() => void reload()} />
            )}
          </>
        )}
      </div>
    </dialog>
  );
}

function LoadFailed({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation('transfers');
  const { t: tApp } = useTranslation();
  const text = errorTextOf(error);
  return (
    <div className="tr-notice tr-notice-error" role="alert">
      <span>
        {t('modal.loadFailed')} {tApp(text.key, text.params)}
      </span>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onRetry}>
        {t('list.retry')}
      </button>
    </div>
  );
}

/** Everything the modal shows about the transfer: link, facts, message, files, recipients, downloads. */
/** The tone of the state pill (styles/app.css) for each phase. */
const PHASE_PILL: Readonly<Record<ExpiryPhase, string>> = {
  active: 'pill-success',
  expiring: 'pill-warn',
  expired: 'pill-muted',
  deleted: 'pill-muted',
};

export function TransferView({ detail }: { detail: TransferDetail }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const now = useNow();
  const phase = expiryPhase(detail, now);
  const ids = useId();
  return (
    <div className="tr-detail">
      <div className="tr-detail-top">
        <div className="tr-detail-main">
          {phase !== 'deleted' && <CopyLink link={detail.link} />}
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
              <dd className="tr-break">{detail.senderName ? `${detail.senderName} <${detail.senderEmail}>` : detail.senderEmail}</dd>
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
        {detail.message ? <p className="tr-message">{detail.message}</p> : <p className="muted">{t('modal.noMessage')}</p>}
      </section>

      <FilesSection detail={detail} />
      {/* what the recipients see and play; none once expired or deleted */}
      {(phase === 'active' || phase === 'expiring') && !detail.purged && detail.files.length > 0 && (
        <LazyPreviews key={detail.slug} files={detail.files} load={(signal) => fetchTransferPreviews(detail.slug, signal)} />
      )}
      <RecipientsSection detail={detail} />
      <DownloadsSection detail={detail} />
    </div>
  );
}

function FilesSection({ detail }: { detail: TransferDetail }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const groups = groupByFolder(detail.files);
  return (
    <section className="tr-section" aria-labelledby={id}>
      <h3 id={id}>
        {t('modal.files')} <span className="muted tr-h-meta">{t('modal.filesCount', { count: detail.files.length })}</span>
      </h3>
      {groups.map((group) => (
        <div key={group.folder || '\u0000'} className="tr-folder">
          {group.folder && (
            <p className="tr-folder-name">
              <FolderIcon /> <span>{group.folder}</span> <span className="muted">· {formatSize(group.size, lng)}</span>
            </p>
          )}
          <ul className="tr-files" aria-label={group.folder || t('modal.files')} data-testid="transfer-files">
            {group.files.map((file) => (
              <li key={file.fileId}>
                <span className="tr-break">
                  {file.fileName}
                  {file.scan && (
                    <span className={`tr-scan tr-scan-${file.scan}`} data-testid="transfer-file-scan">
                      {file.scan === 'pending' ? t('modal.scanPending') : file.scan === 'removed' ? t('modal.scanRemoved') : t('modal.scanError')}
                      {file.finding && <span className="muted"> · {file.finding}</span>}
                    </span>
                  )}
                </span>
                <span className="muted tr-nowrap">{formatSize(file.size, lng)}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

function RecipientsSection({ detail }: { detail: TransferDetail }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  return (
    <section className="tr-section" aria-labelledby={id}>
      <h3 id={id}>{t('modal.recipients')}</h3>
      {detail.recipientsDetail.length === 0 ? (
        <p className="muted">{t('modal.linkOnly')}</p>
      ) : (
        <div className="tr-table-wrap">
          <table className="tr-table tr-table-compact" data-testid="transfer-recipients">
            <TableHead columns={[t('modal.recipientColumns.recipient'), t('modal.recipientColumns.status')]} />
            <tbody>
              {detail.recipientsDetail.map((r) => {
                const status = recipientStatus(r);
                return (
                  <tr key={r.email} data-testid="recipient-row">
                    <th scope="row" className="tr-break">
                      {r.name ? `${r.name} <${r.email}>` : r.email}
                    </th>
                    <td>
                      {status.kind === 'downloaded' ? (
                        <span className="tr-status-done">
                          {status.lastAt === null
                            ? t('modal.downloadedCount', { count: status.times })
                            : t('modal.downloadedTimes', { count: status.times, when: formatDateTime(status.lastAt, lng) })}
                        </span>
                      ) : (
                        <span className="tr-status-waiting">{t('modal.notDownloaded')}</span>
                      )}
                      {r.remindedAt !== undefined && <span className="muted tr-reminded"> · {t('modal.reminded', { when: formatDateTime(r.remindedAt, lng) })}</span>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function DownloadsSection({ detail }: { detail: TransferDetail }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  return (
    <section className="tr-section" aria-labelledby={id}>
      <h3 id={id}>
        {t('modal.downloadsTitle')} <span className="muted tr-h-meta">{t('modal.downloadsTotal', { count: detail.total_downloads })}</span>
      </h3>
      {detail.downloads.length === 0 ? (
        <p className="muted">{t('modal.noDownloads')}</p>
      ) : (
        <div className="tr-table-wrap">
          <table className="tr-table tr-table-compact" data-testid="transfer-downloads-table">
            <TableHead columns={[t('modal.downloadColumns.country'), t('modal.downloadColumns.date'), t('modal.downloadColumns.recipient'), t('modal.downloadColumns.file')]} />
            <tbody>
              {detail.downloads.map((d, index) => (
                <tr key={`${d.dlDate}-${index}`} data-testid="download-row">
                  <td data-testid="download-country">{countryName(d.countryCode, lng) ?? t('modal.unknownCountry')}</td>
                  <td className="tr-nowrap">{formatDateTime(d.dlDate, lng)}</td>
                  <td className="tr-break">{d.receiverEmail ?? <span className="muted">{t('modal.publicLink')}</span>}</td>
                  <td className="tr-break">{d.dlOrigin === 'zip' ? t('modal.zip') : d.fileName}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function FolderIcon() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" aria-hidden="true">
      <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
    </svg>
  );
}
