import { useTranslation } from 'react-i18next';
import type { DownloadView } from '@domain/transfer-api';
import { formatSize } from '@/lib/format-size';
import { fetchPreviews, type DownloadAccess } from '@/shared/downloads/download-api';
import { LazyPreviews } from '@/components/previews/lazy-previews';
import type { DownloadFailure } from '@/features/downloads/download-failure';
import { formatDateTime } from '@/lib/format-date-time';
import { transferTitle } from '@/features/downloads/transfer-title';
import { ClockIcon, DownloadIcon } from '@/features/downloads/components/download-icons';
import { ReportAction } from '@/features/downloads/components/report-action';
import { FileRow } from './download-file-row';
import { Status } from './download-status';
import { useTransferDownloads } from './use-transfer-downloads';

/** The unlocked transfer: who sent it, the message, the files and their Download buttons. */
export function TransferView({
  view,
  access,
  autoZip,
  onAutoZipDone,
  onFailure,
}: {
  view: DownloadView;
  access: () => DownloadAccess;
  /** start the ZIP (or the only file) on arrival, for the emailed "Download all" link */
  autoZip: boolean;
  onAutoZipDone: () => void;
  /** a 401, 404 or 410 on a later call replaces the page */
  onFailure: (failure: DownloadFailure) => void;
}) {
  const { t, i18n } = useTranslation();
  const [started, busyFile, zip, notice, error, downloadFile, downloadAll] = useTransferDownloads(
    view,
    access,
    autoZip,
    onAutoZipDone,
    onFailure,
  );
  const files = view.files;

  const sender = view.senderName || view.senderEmail;
  const summary =
    view.fileCount === 1
      ? t('download.summaryOne', { size: formatSize(view.totalBytes, i18n.language) })
      : t('download.summaryMany', { n: view.fileCount, size: formatSize(view.totalBytes, i18n.language) });
  const single = files.length === 1;
  // nothing downloads before the malware scan; removed and unchecked files never do
  const checking = view.scanState === 'pending';
  const servable = files.filter((f) => (f.scan ?? 'clean') === 'clean');

  return (
    <article className="download-card">
      <header className="download-head">
        <p className="download-greeting">
          {view.recipientEmail ? t('download.greetingNamed', { email: view.recipientEmail }) : t('download.greeting')}{' '}
          {sender ? t('download.sentBy', { sender }) : t('download.sentAnonymous')}
        </p>
        <h1 className="download-title">{transferTitle(view, t)}</h1>
        <p className="download-summary" data-testid="download-summary">
          {summary}
        </p>
      </header>

      {view.message.trim() !== '' && (
        <figure className="download-message">
          <figcaption>{t('download.messageLabel')}</figcaption>
          <blockquote>{view.message}</blockquote>
        </figure>
      )}

      {files.length === 0 ? (
        <div className="download-empty" data-testid="download-empty">
          <h2>{t('download.emptyTitle')}</h2>
          <p className="muted">{t('download.emptyBody')}</p>
        </div>
      ) : (
        <>
          {checking && (
            <p className="download-notice download-scan-notice" role="status" data-testid="download-checking">
              <span className="download-spinner download-spinner-brand" aria-hidden="true" />
              {t('download.scanChecking')}
            </p>
          )}
          {!single && (
            <button
              type="button"
              className="btn btn-primary btn-lg btn-block"
              disabled={zip === 'building' || checking || servable.length === 0}
              onClick={() => void downloadAll()}
              data-testid="download-all"
            >
              {zip === 'building' ? <span className="download-spinner" aria-hidden="true" /> : <DownloadIcon />}
              {zip === 'started' ? t('download.downloadAllAgain') : t('download.downloadAll')}
            </button>
          )}

          <Status zip={zip} notice={notice} error={error} />

          <h2 className="download-files-heading">{t('download.filesHeading')}</h2>
          <ul className="download-files">
            {files.map((file) => (
              <FileRow
                key={file.fileId}
                file={file}
                primary={single}
                started={started.has(file.fileId)}
                busy={busyFile === file.fileId || file.scan === 'pending'}
                onDownload={() => void downloadFile(file)}
              />
            ))}
          </ul>

          <LazyPreviews files={servable} load={(signal) => fetchPreviews(access(), signal)} />
        </>
      )}

      <p className="download-expiry" data-testid="download-expiry">
        <ClockIcon width={16} height={16} />
        {t('download.expires', { date: formatDateTime(view.expiryDate, i18n.language) })}
      </p>
      <ReportAction id={view.id} />
    </article>
  );
}
