import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isRequestId, type RequestUpload } from '@domain/requests-api';
import { PageLoading } from '@/components/page-loading';
import { dashPaths } from '@/app/dash-paths';
import { errorTextOf } from '@/i18n/error-keys';
import { ApiError } from '@/lib/api';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import { deleteRequestUpload, fetchRequestDetail, updateRequest } from '../api/requests-api';
import { DeleteUploadDialog } from './delete-upload-dialog';
import { RequestDetailHead, type DetailNotice } from './request-detail-head';
import { UploadCard } from './upload-card';
import '@/styles/transfers.css';
import '../requests.css';

/** Not found, or not the user's: said as missing, without Retry. */
const isMissing = (err: unknown) => err instanceof ApiError && (err.status === 404 || err.status === 403);

export function RequestDetailPage() {
  const { slug = '' } = useParams();
  const { t } = useTranslation('requests');
  const { t: tApp } = useTranslation();
  const ids = useId();
  // A malformed id is missing at once, without asking the API.
  const valid = isRequestId(slug);
  const load = useLoad((signal) => fetchRequestDetail(slug, signal), [slug], { enabled: valid, refused: isMissing });
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<DetailNotice | null>(null);
  const [confirming, setConfirming] = useState<RequestUpload | null>(null);
  const [deleting, setDeleting] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const detail = valid && load.state === 'ready' ? load.data : null;
  usePageTitle(detail ? detail.request.title : t('detail.pageTitle'));

  const apiText = (err: unknown) =>
    err instanceof ApiError && !err.isNetwork
      ? tApp(errorTextOf(err).key, errorTextOf(err).params)
      : tApp('send.toast.connectionTrouble');

  const setState = async (state: 'open' | 'closed') => {
    if (!detail || saving) return;
    setSaving(true);
    setNotice(null);
    try {
      const request = await updateRequest(detail.request.id, {
        state,
        ...(state === 'open' && detail.request.state === 'expired' ? { dueDate: null } : {}),
      });
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
        request: {
          ...detail.request,
          uploadCount: Math.max(0, detail.request.uploadCount - 1),
          totalBytes: Math.max(0, detail.request.totalBytes - upload.totalBytes),
        },
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
      <RequestDetailHead
        request={request}
        headingRef={heading}
        saving={saving}
        notice={notice}
        onSetState={(state) => void setState(state)}
      />

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
        <DeleteUploadDialog
          upload={confirming}
          dialogRef={dialog}
          deleting={deleting}
          onConfirm={() => void confirmDelete()}
          onClosed={() => {
            setConfirming(null);
            returnFocus.current?.focus();
          }}
        />
      )}
    </div>
  );
}
