import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadFile, DownloadView } from '@domain/transfer-api';
import { fetchFileUrl, requestZip, type DownloadAccess } from '@/shared/downloads/download-api';
import { downloadFailureOf, replacesPage, type DownloadFailure } from '@/features/downloads/download-failure';
import { startBrowserDownload } from '@/shared/downloads/start-browser-download';
import { useLifetimeSignal } from '@/features/downloads/use-lifetime-signal';
import { pollZip, ZipTimeoutError } from '@/shared/downloads/zip-poll';

export type ZipPhase = 'idle' | 'building' | 'started';

/**
 * The download page's downloads: one file's link or the ZIP of all, which files have started,
 * what to say, and the emailed "Download all" link's start on arrival.
 */
export function useTransferDownloads(
  view: DownloadView,
  access: () => DownloadAccess,
  autoZip: boolean,
  onAutoZipDone: () => void,
  onFailure: (failure: DownloadFailure) => void,
) {
  const { t } = useTranslation();
  const [started, setStarted] = useState<ReadonlySet<string>>(new Set());
  const [busyFile, setBusyFile] = useState<string | null>(null);
  const [zip, setZip] = useState<ZipPhase>('idle');
  const [notice, setNotice] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Aborts when the page goes away: stops ZIP polling and drops late answers.
  const signal = useLifetimeSignal();

  function showError(failure: unknown) {
    if (failure instanceof ZipTimeoutError) {
      setError(t('download.zipTooSlow'));
      return;
    }
    const mapped = downloadFailureOf(failure);
    if (replacesPage(mapped)) onFailure(mapped);
    else setError(mapped.kind === 'rateLimited' ? t(mapped.text.key, mapped.text.params) : t('download.networkError'));
  }

  async function downloadFile(file: DownloadFile): Promise<void> {
    setBusyFile(file.fileId);
    setError(null);
    try {
      const { url } = await fetchFileUrl(access(), file.fileId, signal);
      if (signal.aborted) return;
      startBrowserDownload(url);
      setStarted((ids) => new Set(ids).add(file.fileId));
      setNotice(true);
    } catch (failure) {
      if (!signal.aborted) showError(failure);
    } finally {
      if (!signal.aborted) setBusyFile(null);
    }
  }

  async function downloadAll(): Promise<void> {
    setZip('building');
    setError(null);
    try {
      const { url } = await pollZip((s) => requestZip(access(), s), { signal });
      if (signal.aborted) return;
      startBrowserDownload(url);
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
    if (!autoZip || autoStarted.current || files.length === 0 || view.scanState === 'pending') return;
    autoStarted.current = true;
    const only = files.length === 1 ? files[0] : undefined;
    void (only ? downloadFile(only) : downloadAll()).then(() => {
      if (!signal.aborted) onAutoZipDone();
    });
    // Keyed on autoZip (and the scan's end): it is for the arrival, and later renders must not restart it.
  }, [autoZip, view.scanState]);

  // A tuple, like useState's: the download page's first load pays for every property name.
  return [started, busyFile, zip, notice, error, downloadFile, downloadAll] as const;
}
