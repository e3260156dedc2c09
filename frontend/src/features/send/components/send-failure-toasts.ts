import type { TFunction } from 'i18next';
import { ApiError } from '@/lib/api';
import type { ToastAction, ToastInput } from '@/lib/use-toasts';
import { errorTextOf } from '@/i18n/error-keys';
import { UploadFailedError } from '@/shared/upload/errors';

/**
 * The toasts for a send or resume that failed (spec §8), other than a cancel: which ones depends
 * on where it failed (a file's upload, the plan's transfer cap, the connection, a refusal).
 */
export function sendFailureToasts(
  err: unknown,
  transferCreated: boolean,
  trialAction: ToastAction,
  t: TFunction,
): ToastInput[] {
  if (err instanceof UploadFailedError) {
    const body = t('send.toast.couldNotSendBody', { file: err.fileName });
    return [
      {
        kind: 'error',
        title: t('send.toast.couldNotSend'),
        body: err.requestId ? `${body} ${t('send.toast.requestId', { id: err.requestId })}` : body,
      },
      { kind: 'info', title: t('send.toast.connectionError'), body: t('send.toast.resumeWithin') },
    ];
  }
  if (err instanceof ApiError && err.code === 'over_transfer_limit')
    return [
      {
        kind: 'info',
        title: t('send.toast.overTransferLimit'),
        body: t('dashboard.limit.upgrade'),
        action: trialAction,
      },
    ];
  if (err instanceof ApiError && err.isNetwork)
    return [
      {
        kind: 'error',
        title: t('send.toast.connectionError'),
        body: transferCreated ? t('send.toast.resumeWithin') : t('send.toast.connectionTrouble'),
      },
    ];
  // A refusal is told by its code, never by the API's English message.
  const text = err instanceof ApiError ? errorTextOf(err) : null;
  return [
    {
      kind: 'error',
      title: t('send.toast.sendFailed'),
      body: text ? t(text.key, text.params) : t('send.toast.connectionTrouble'),
    },
  ];
}
