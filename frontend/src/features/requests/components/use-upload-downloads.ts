import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestUpload } from '@domain/requests-api';
import { fetchFileUrl, requestZip } from '@/shared/downloads/download-api';
import { startBrowserDownload } from '@/shared/downloads/start-browser-download';
import { pollZip } from '@/shared/downloads/zip-poll';
import { errorTextOf } from '@/i18n/error-keys';
import { ApiError } from '@/lib/api';

/** What one upload's card is doing: a file's link, the ZIP being built, a failure. */
type Busy = { readonly kind: 'file'; readonly fileId: string } | { readonly kind: 'zip' } | null;

/** One upload's downloads: a file's link or the whole upload as a ZIP, with what to say meanwhile. */
export function useUploadDownloads(upload: RequestUpload) {
  const { t } = useTranslation('requests');
  const { t: tApp } = useTranslation();
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

  return { busy, error, status, downloadFile, downloadAll };
}
