import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestUpload } from '@domain/requests-api';
import { formatSize } from '@/lib/format-size';
import { fetchFileUrl, requestZip } from '@/shared/downloads/download-api';
import { formatDateTime } from '@/lib/format-date-time';
import { startBrowserDownload } from '@/shared/downloads/start-browser-download';
import { pollZip } from '@/shared/downloads/zip-poll';
import { errorTextOf } from '@/i18n/error-keys';
import { ApiError } from '@/lib/api';

/** What one upload's card is doing: a file's link, the ZIP being built, a failure. */
type Busy = { readonly kind: 'file'; readonly fileId: string } | { readonly kind: 'zip' } | null;

export function UploadCard({
  upload,
  onDelete,
}: {
  upload: RequestUpload;
  onDelete(upload: RequestUpload, button: HTMLButtonElement): void;
}) {
  const { t, i18n } = useTranslation('requests');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const ids = useId();
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const fail = (err: unknown) => {
    if (err instanceof DOMException && err.name === 'AbortError') return;
    setError(
      err instanceof ApiError && !err.isNetwork
        ? tApp(errorTextOf(err).key, errorTextOf(err).params)
        : t('detail.downloadFailed'),
    );
  };

  const downloadFile = async (fileId: string) => {
    setBusy({ kind: 'file', fileId });
    setError(null);
    try {
      const { url } = await fetchFileUrl({ id: upload.slug }, fileId);
      startBrowserDownload(url);
      setStatus(t('detail.downloadStarted'));
    } catch (err) {
      fail(err);
    } finally {
      setBusy(null);
    }
  };

  const downloadAll = async () => {
    controller.current?.abort();
    const run = new AbortController();
    controller.current = run;
    setBusy({ kind: 'zip' });
    setError(null);
    setStatus(t('detail.zipBuilding'));
    try {
      const { url } = await pollZip((signal) => requestZip({ id: upload.slug }, signal), { signal: run.signal });
      startBrowserDownload(url);
      setStatus(t('detail.downloadStarted'));
    } catch (err) {
      setStatus('');
      fail(err);
    } finally {
      if (controller.current === run) setBusy(null);
    }
  };

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

/**
 * /dash/requests/:slug (spec §2): the request (title, link to copy, state, due date, close or
 * reopen) and every visitor's upload: who, when, their message and files, each file's download,
 * "Download all" as a ZIP, and deleting an upload after a confirmation.
 */
