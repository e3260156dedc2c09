import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestUpload } from '@domain/requests-api';
import { formatSize } from '@/lib/format-size';
import { formatDateTime } from '@/lib/format-date-time';
import { useUploadDownloads } from './use-upload-downloads';

/** One visitor's upload: who and when, their message and files, downloads and delete. */
export function UploadCard({
  upload,
  onDelete,
}: {
  upload: RequestUpload;
  onDelete(upload: RequestUpload, button: HTMLButtonElement): void;
}) {
  const { t, i18n } = useTranslation('requests');
  const lng = i18n.resolvedLanguage ?? 'en';
  const ids = useId();
  const { busy, error, status, downloadFile, downloadAll } = useUploadDownloads(upload);

  return (
    <article
      className="card rq-upload"
      aria-labelledby={`${ids}-who`}
      data-testid="request-upload-card"
      data-slug={upload.slug}
    >
      <header className="rq-upload-head">
        <div>
          <h3 id={`${ids}-who`} className="rq-upload-who" data-testid="request-upload-who">
            {upload.senderName} <span className="muted">&lt;{upload.senderEmail}&gt;</span>
          </h3>
          <p className="muted rq-upload-meta">
            {t('detail.uploadedAt', { date: formatDateTime(upload.uploadedAt, lng) })} ·{' '}
            {t('detail.filesSummary', { count: upload.fileCount, size: formatSize(upload.totalBytes, lng) })} ·{' '}
            {t('detail.expires', { date: formatDateTime(upload.expiryDate, lng) })}
          </p>
        </div>
        <div className="rq-upload-actions">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={() => void downloadAll()}
            disabled={busy?.kind === 'zip'}
            aria-describedby={`${ids}-who`}
            data-testid="request-upload-zip"
          >
            {busy?.kind === 'zip' ? t('detail.zipBusy') : t('detail.downloadAll')}
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm tr-danger"
            onClick={(e) => onDelete(upload, e.currentTarget)}
            aria-describedby={`${ids}-who`}
            data-testid="request-upload-delete"
          >
            {t('detail.delete')}
          </button>
        </div>
      </header>
      {upload.message && (
        <blockquote className="tr-message" data-testid="request-upload-message">
          {upload.message}
        </blockquote>
      )}
      <ul className="rq-files-list" aria-label={t('detail.filesLabel', { name: upload.senderName })}>
        {upload.files.map((f) => (
          <li key={f.fileId} className="rq-file" data-testid="request-upload-file" data-file-name={f.fileName}>
            <span className="rq-file-name tr-break">{f.itemPath ?? f.fileName}</span>
            <span className="muted rq-file-size">{formatSize(f.size, lng)}</span>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => void downloadFile(f.fileId)}
              disabled={busy?.kind === 'file' && busy.fileId === f.fileId}
              aria-label={t('detail.downloadFile', { name: f.itemPath ?? f.fileName })}
              data-testid="request-upload-file-download"
            >
              {t('detail.download')}
            </button>
          </li>
        ))}
      </ul>
      <p className="sr-only" role="status">
        {status}
      </p>
      {busy?.kind === 'zip' && <p className="muted rq-zip-note">{t('detail.zipBuilding')}</p>}
      {error && (
        <p className="tr-notice tr-notice-error" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
