import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isRequestId, type RequestUpload } from '@domain/requests-api';
import { errorTextOf } from '@/i18n/error-keys';
import { ApiError } from '@/lib/api';
import { useLoad } from '@/lib/use-load';
import { deleteRequestUpload, fetchRequestDetail, updateRequest } from '../api/requests-api';
import type { DetailNotice } from './request-detail-head';

/** Not found, or not the user's: said as missing, without Retry. */
const isMissing = (err: unknown) => err instanceof ApiError && (err.status === 404 || err.status === 403);

/**
 * One request's detail: loading it, closing or reopening it, and deleting an upload after the
 * dialog's confirmation (focus goes back to the delete button, or to the heading once its card is gone).
 */
export function useRequestDetail(slug: string) {
  const { t } = useTranslation('requests');
  const { t: tApp } = useTranslation();
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

  return {
    valid,
    load,
    detail,
    saving,
    notice,
    confirming,
    deleting,
    dialog,
    heading,
    setState,
    askDelete,
    confirmDelete,
    dialogClosed: () => {
      setConfirming(null);
      returnFocus.current?.focus();
    },
  };
}
