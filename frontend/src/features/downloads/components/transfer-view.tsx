import { Suspense, lazy, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadFile, DownloadView } from '@domain/transfer-api';
import { fetchFileUrl, fetchPreviews, requestZip, type DownloadAccess } from '@/shared/downloads/download-api';
import { LazyPreviews } from '@/components/previews/lazy-previews';
import { downloadFailureOf, replacesPage, type DownloadFailure } from '@/features/downloads/download-failure';
import { formatDateTime } from '@/lib/format-date-time';
import { startBrowserDownload } from '@/shared/downloads/start-browser-download';
import { useLifetimeSignal } from '@/features/downloads/use-lifetime-signal';
import { pollZip, ZipTimeoutError } from '@/shared/downloads/zip-poll';
import { ClockIcon, DownloadIcon } from '@/features/downloads/components/download-icons';
import { ReportAction } from '@/features/downloads/components/report-action';
import { importWithRetry } from '@/lib/import-with-retry';
import type { SealedActions } from '@/features/downloads/sealed-actions';
import { FileRow } from './download-file-row';
import { DownloadHead } from './download-head';
import { Status, type ZipPhase } from './download-status';

// Only a transfer with review on shows it: its threads, forms and texts stay out of the others' first load.
const ReviewPanel = lazy(() =>
  importWithRetry(() => import('@/features/downloads/review/review-panel')).then((m) => ({ default: m.ReviewPanel })),
);

export interface TransferViewProps {
  view: DownloadView;
  /** while the upload runs: its progress, above the complete files */
  live?: ReactNode;
  access: () => DownloadAccess;
  /** start the ZIP (or the only file) on arrival, for the emailed "Download all" link */
  autoZip: boolean;
  onAutoZipDone: () => void;
  /** a 401, 404 or 410 on a later call replaces the page */
  onFailure: (failure: DownloadFailure) => void;
  /** an end-to-end encrypted transfer: opened, zipped and previewed in this browser */
  sealed?: SealedActions;
}

/** The unlocked transfer: who sent it, the message, the files and their Download buttons. */
export function TransferView({ view, access, autoZip, onAutoZipDone, onFailure, live, sealed }: TransferViewProps) {
  const { t, i18n } = useTranslation();
  const [started, setStarted] = useState<ReadonlySet<string>>(new Set());
  const [busyFile, setBusyFile] = useState<string | null>(null);
  const [zip, setZip] = useState<ZipPhase>('idle');
  const [notice, setNotice] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);

  // Aborts when the page goes away: stops ZIP polling and drops late answers.
  const signal = useLifetimeSignal();

  function showError(failure: unknown) {
    if (failure instanceof ZipTimeoutError) {
      setError(t('download.zipTooSlow'));
      return;
    }
    // a sealed transfer's own failures: a changed file, too large to save here, '' for a save the visitor cancelled
    const sealedText = sealed?.errorText(failure);
    if (sealedText != null) {
      setError(sealedText || null);
      return;
    }
    const mapped = downloadFailureOf(failure);
    if (replacesPage(mapped)) onFailure(mapped);
    else if (mapped.kind === 'rateLimited') setError(t(mapped.text.key, mapped.text.params));
    else if (mapped.kind === 'limitReached') setError(t('download.limitReached'));
    else setError(t('download.networkError'));
  }

  async function downloadFile(file: DownloadFile): Promise<void> {
    setBusyFile(file.fileId);
    setError(null);
    try {
      const { url } = await fetchFileUrl(access(), file.fileId, signal);
      if (signal.aborted) return;
      if (sealed) await sealed.saveFile(file, url, signal);
      else startBrowserDownload(url);
      setStarted((ids) => new Set(ids).add(file.fileId));
      setNotice(true);
    } catch (failure) {
      if (!signal.aborted) showError(failure);
    } finally {
      if (!signal.aborted) setBusyFile(null);
    }
  }

  // The SHA256SUMS file; its code arrives on the click (the page's first load stays as it was).
  async function downloadChecksums(): Promise<void> {
    setError(null);
    setInfo(null);
    try {
      const m = await importWithRetry(() => import('@/features/downloads/checksums-file'));
      const { pending } = await m.downloadChecksums(access(), signal);
      if (signal.aborted) return;
      if (pending > 0) setInfo(t('download.checksumsPending'));
      else setNotice(true);
    } catch (failure) {
      if (!signal.aborted) showError(failure);
    }
  }

  async function downloadAll(): Promise<void> {
    setZip('building');
    setError(null);
    try {
      // the server builds no ZIP of files it cannot read: this browser does
      if (sealed) await sealed.saveAll(servable, signal);
      else {
        const { url } = await pollZip((s) => requestZip(access(), s), { signal });
        if (signal.aborted) return;
        startBrowserDownload(url);
      }
      if (signal.aborted) return;
      setZip('started');
      setNotice(true);
    } catch (failure) {
      if (signal.aborted) return;
      setZip('idle');
      showError(failure);
    }
  }

  // The emailed "Download all" link: once the files are visible, start the ZIP (or the one
  // file) exactly once; the ref survives StrictMode's second run of the effect, so the
  // download is requested (and counted) once.
  const files = view.files;
  const autoStarted = useRef(false);
  useEffect(() => {
    if (!autoZip || autoStarted.current || files.length === 0 || view.scanState === 'pending' || view.upload) return;
    autoStarted.current = true;
    const only = files.length === 1 ? files[0] : undefined;
    void (only ? downloadFile(only) : downloadAll()).then(() => {
      if (!signal.aborted) onAutoZipDone();
    });
    // Keyed on autoZip (and the scan's end): it is for the arrival, and later renders must not restart it.
  }, [autoZip, view.scanState, !view.upload]);

  // counted over every file of the transfer, those still uploading too
  const single = (view.upload?.fileCount ?? files.length) === 1;
  // nothing downloads before the malware scan; removed and undecided files never do
  const checking = view.scanState === 'pending';
  const servable = files.filter((f) => (f.scan ?? 'clean') === 'clean' || f.scan === 'unscanned');

  return (
    <article className="download-card">
      <DownloadHead view={view} />
      {sealed?.notice}

      {live}
      {files.length === 0 && !live ? (
        <div className="download-empty" data-testid="download-empty">
          <h2>{t('download.emptyTitle')}</h2>
          <p className="muted">{t('download.emptyBody')}</p>
        </div>
      ) : (
        <>
          {view.limitReached && (
            <p className="download-notice" role="status" data-testid="download-limit-reached">
              {t('download.limitReached')}
            </p>
          )}
          {checking && (
            <p className="download-notice download-scan-notice" role="status" data-testid="download-checking">
              <span className="download-spinner download-spinner-brand" aria-hidden="true" />
              {t('download.scanChecking')}
            </p>
          )}
          {!single && !live && (
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

          <Status zip={zip} notice={notice} error={error} info={info} />

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

          {view.review?.enabled ? (
            <Suspense fallback={null}>
              <ReviewPanel expiryDate={view.expiryDate} access={access} />
            </Suspense>
          ) : sealed ? (
            sealed.previews
          ) : (
            <LazyPreviews files={servable} load={(signal) => fetchPreviews(access(), signal)} />
          )}

          {/* checksums of the stored objects would be of ciphertext: a sealed transfer's files are checked by their tags */}
          {!sealed && (
            <button
              type="button"
              className="btn-link download-checksums"
              disabled={checking}
              onClick={() => void downloadChecksums()}
              data-testid="download-checksums"
            >
              {t('download.checksums')}
            </button>
          )}
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
