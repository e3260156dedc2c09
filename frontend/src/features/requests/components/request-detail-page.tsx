import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isRequestId, type RequestUpload } from '@domain/requests-api';
import { PageLoading } from '@/components/page-loading';
import { dashPaths } from '@/app/dash-paths';
import { formatSize } from '@/lib/format-size';
import { fetchFileUrl, requestZip } from '@/shared/downloads/download-api';
import { formatDateTime } from '@/lib/format-date-time';
import { startBrowserDownload } from '@/shared/downloads/start-browser-download';
import { pollZip } from '@/shared/downloads/zip-poll';
import { CopyLink } from '@/components/copy-link';
import { errorTextOf } from '@/i18n/error-keys';
import { ApiError } from '@/lib/api';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import { deleteRequestUpload, fetchRequestDetail, updateRequest } from '../api/requests-api';
import { STATE_BADGE } from '../request-state';
import '@/styles/transfers.css';
import '../requests.css';

/** Not found, or not the user's: said as missing, without Retry. */
const isMissing = (err: unknown) => err instanceof ApiError && (err.status === 404 || err.status === 403);

/** What one upload's card is doing: a file's link, the ZIP being built, a failure. */
type Busy = { readonly kind: 'file'; readonly fileId: string } | { readonly kind: 'zip' } | null;

function UploadCard({ upload, onDelete }: { upload: RequestUpload; onDelete(upload: RequestUpload, button: HTMLButtonElement): void }) {
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
    setError(err instanceof ApiError && !err.isNetwork ? tApp(errorTextOf(err).key, errorTextOf(err).params) : t('detail.downloadFailed'));
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
    <article className="card rq-upload" aria-labelledby={`${ids}-who`} data-testid="request-upload-card" data-slug={upload.slug}>
      <header className="rq-upload-head">
        <div>
          <h3 id={`${ids}-who`} className="rq-upload-who" data-testid="request-upload-who">
            {upload.senderName} <span className="muted">&lt;{upload.senderEmail}&gt;</span>
          </h3>
          <p className="muted rq-upload-meta">
            {t('detail.uploadedAt', { date: formatDateTime(upload.uploadedAt, lng) })} · {t('detail.filesSummary', { count: upload.fileCount, size: formatSize(upload.totalBytes, lng) })} ·{' '}
            {t('detail.expires', { date: formatDateTime(upload.expiryDate, lng) })}
          </p>
        </div>
        <div className="rq-upload-actions">
          <button type="button" className="btn btn-primary btn-sm" onClick={() => void downloadAll()} disabled={busy?.kind === 'zip'} aria-describedby={`${ids}-who`} data-testid="request-upload-zip">
            {busy?.kind === 'zip' ? t('detail.zipBusy') : t('detail.downloadAll')}
          </button>
          <button type="button" className="btn btn-ghost btn-sm tr-danger" onClick={(e) => onDelete(upload, e.currentTarget)} aria-describedby={`${ids}-who`} data-testid="request-upload-delete">
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
export function RequestDetailPage() {
  const { slug = '' } = useParams();
  const { t, i18n } = useTranslation('requests');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const ids = useId();
  // A malformed id is missing at once, without asking the API.
  const valid = isRequestId(slug);
  const load = useLoad((signal) => fetchRequestDetail(slug, signal), [slug], { enabled: valid, refused: isMissing });
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [confirming, setConfirming] = useState<RequestUpload | null>(null);
  const [deleting, setDeleting] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const detail = valid && load.state === 'ready' ? load.data : null;
  usePageTitle(detail ? detail.request.title : t('detail.pageTitle'));

  useEffect(() => {
    const element = dialog.current;
    if (!confirming || !element || element.open) return;
    element.showModal();
    // Cancel takes the focus once the dialog is open: React's autoFocus focuses at
    // mount, while the dialog is still closed, and writes no attribute for showModal() to honour.
    cancelButton.current?.focus();
  }, [confirming]);

  const apiText = (err: unknown) => (err instanceof ApiError && !err.isNetwork ? tApp(errorTextOf(err).key, errorTextOf(err).params) : tApp('send.toast.connectionTrouble'));

  const setState = async (state: 'open' | 'closed') => {
    if (!detail || saving) return;
    setSaving(true);
    setNotice(null);
    try {
      const request = await updateRequest(detail.request.id, { state, ...(state === 'open' && detail.request.state === 'expired' ? { dueDate: null } : {}) });
      load.setData({ ...detail, request });
      setNotice({ kind: 'success', text: state === 'closed' ? t('detail.closedNotice') : t('detail.reopenedNotice') });
    } catch (err) {
      setNotice({ kind: 'error', text: apiText(err) });
    } finally {
      setSaving(false);
    }
  };

  const askDelete = (upload: RequestUpload, button: HTMLButtonElement) => {
    returnFocus.current = button;
    setConfirming(upload);
  };

  const closeDialog = () => dialog.current?.close();

  const confirmDelete = async () => {
    if (!detail || !confirming || deleting) return;
    const upload = confirming;
    setDeleting(true);
    try {
      await deleteRequestUpload(detail.request.id, upload.slug);
      const uploads = detail.uploads.filter((u) => u.slug !== upload.slug);
      load.setData({
        request: { ...detail.request, uploadCount: Math.max(0, detail.request.uploadCount - 1), totalBytes: Math.max(0, detail.request.totalBytes - upload.totalBytes) },
        uploads,
      });
      setNotice({ kind: 'success', text: t('detail.deleted', { name: upload.senderName }) });
      // Its card is gone: focus goes to the page's heading instead.
      returnFocus.current = heading.current;
    } catch (err) {
      setNotice({ kind: 'error', text: apiText(err) });
    } finally {
      setDeleting(false);
      closeDialog();
    }
  };

  if (valid && load.state === 'loading') return <PageLoading />;
  if (!detail) {
    return (
      <div className="container dash-page rq-page">
        <p>
          <Link to={dashPaths.requests()}>{t('detail.back')}</Link>
        </p>
        <div className="card tr-empty" role="alert" data-testid="request-detail-missing">
          <p>{valid && load.state === 'failed' ? t('detail.loadFailed') : t('detail.notFound')}</p>
          {valid && load.state === 'failed' && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={load.reload}>
              {t('list.retry')}
            </button>
          )}
        </div>
      </div>
    );
  }

  const { request, uploads } = detail;
  return (
    <div className="container dash-page rq-page" data-testid="request-detail">
      <p className="rq-back">
        <Link to={dashPaths.requests()}>{t('detail.back')}</Link>
      </p>
      <section className="card rq-detail-head" aria-labelledby={`${ids}-title`}>
        <div className="rq-detail-title">
          <h1 id={`${ids}-title`} ref={heading} tabIndex={-1} data-testid="request-detail-title">
            {request.title}
          </h1>
          <span className={STATE_BADGE[request.state]} data-state={request.state} data-testid="request-detail-state">
            {t(`state.${request.state}`)}
          </span>
        </div>
        {request.message && <p className="tr-message">{request.message}</p>}
        <dl className="tr-facts">
          <div>
            <dt>{t('detail.facts.due')}</dt>
            <dd>{request.dueDate === null ? t('list.noDue') : formatDateTime(request.dueDate, lng)}</dd>
          </div>
          <div>
            <dt>{t('detail.facts.uploads')}</dt>
            <dd data-testid="request-detail-count">{t('detail.uploadsSummary', { count: request.uploadCount, size: formatSize(request.totalBytes, lng) })}</dd>
          </div>
          <div>
            <dt>{t('detail.facts.created')}</dt>
            <dd>{formatDateTime(request.createdAt, lng)}</dd>
          </div>
        </dl>
        <CopyLink link={request.link} label={t('list.linkLabel')} testId="request-detail-link" />
        <div className="rq-form-actions rq-start">
          {request.state === 'open' ? (
            <button type="button" className="btn btn-ghost" onClick={() => void setState('closed')} disabled={saving} data-testid="request-close">
              {t('detail.close')}
            </button>
          ) : (
            <button type="button" className="btn btn-primary" onClick={() => void setState('open')} disabled={saving} data-testid="request-reopen">
              {t('detail.reopen')}
            </button>
          )}
        </div>
        <div role="status">
          {notice?.kind === 'success' && (
            <p className="tr-notice tr-notice-success" data-testid="request-notice">
              {notice.text}
            </p>
          )}
        </div>
        {notice?.kind === 'error' && (
          <p className="tr-notice tr-notice-error" role="alert" data-testid="request-error">
            {notice.text}
          </p>
        )}
      </section>

      <section className="rq-uploads" aria-labelledby={`${ids}-uploads`}>
        <h2 id={`${ids}-uploads`}>{t('detail.uploadsTitle')}</h2>
        {uploads.length === 0 ? (
          <p className="card tr-empty" data-testid="request-no-uploads">
            {t('detail.noUploads')}
          </p>
        ) : (
          uploads.map((u) => <UploadCard key={u.slug} upload={u} onDelete={askDelete} />)
        )}
      </section>

      {confirming && (
        <dialog
          ref={dialog}
          className="dash-modal"
          aria-labelledby={`${ids}-confirm`}
          aria-describedby={`${ids}-confirm-body`}
          onClose={() => {
            setConfirming(null);
            returnFocus.current?.focus();
          }}
          data-testid="request-delete-dialog"
        >
          <div className="dash-modal-body">
            <h2 id={`${ids}-confirm`}>{t('detail.confirmTitle')}</h2>
            <p id={`${ids}-confirm-body`}>{t('detail.confirmBody', { name: confirming.senderName, count: confirming.fileCount })}</p>
            <div className="rq-form-actions">
              <button type="button" className="btn btn-ghost" onClick={closeDialog} ref={cancelButton} data-testid="request-delete-cancel">
                {t('detail.confirmNo')}
              </button>
              <button type="button" className="btn btn-primary tr-danger-solid" onClick={() => void confirmDelete()} disabled={deleting} data-testid="request-delete-confirm">
                {deleting ? t('detail.deleting') : t('detail.confirmYes')}
              </button>
            </div>
          </div>
        </dialog>
      )}
    </div>
  );
}
