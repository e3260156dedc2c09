import { useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicRequestResponse } from '@domain/requests-api';
import { errorTextOf } from '@/i18n/error-keys';
import { ApiError } from '@/lib/api';
import type { ToastInput } from '@/lib/use-toasts';
import { sendFlow, startingProgress, useUploadCardSteps, type ActiveUpload } from '@/shared/upload/active-upload';
import { resumingRun, stopUpload } from '@/shared/upload/upload-run';
import type { CheckpointStorage, UploadCheckpoint } from '@/shared/upload/checkpoint';
import type { UploadProgress } from '@/shared/upload/engine';
import { UploadCancelledError, UploadFailedError } from '@/shared/upload/errors';
import type { PickedFile } from '@/shared/upload/picked-files';
import { warningToast } from '@/shared/upload/progress-text';
import { startRequestUpload } from '../api/requests-api';
import type { VisitorDetails } from '../request-rules';
import { refusalText } from '../request-errors';
import { loadStateOf, type RequestLoad } from './use-public-request';

export type UploadStep = 'form' | 'verify' | 'uploading' | 'done';

interface RequestUploadOptions {
  readonly request: PublicRequestResponse | null;
  readonly files: readonly PickedFile[];
  readonly details: VisitorDetails;
  readonly lang: string;
  readonly storage: CheckpointStorage | null;
  /** the upload card, whose step heading takes the focus as the step changes */
  readonly card: RefObject<HTMLElement | null>;
  push(toast: ToastInput): void;
  /** the request closed meanwhile: the page shows why */
  onClosed(load: RequestLoad): void;
}

/**
 * The upload card's steps (form, verify, uploading, done) and the upload itself: a new one
 * after the code is verified, or the checkpoint's carried on; cancel stops it and tells the server.
 */
export function useRequestUpload({
  request,
  files,
  details,
  lang,
  storage,
  card,
  push,
  onClosed,
}: RequestUploadOptions) {
  const { t, i18n } = useTranslation('requests');
  const { t: tApp } = useTranslation();
  const [step, setStep] = useState<UploadStep>('form');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const active = useRef<ActiveUpload | null>(null);

  useUploadCardSteps(step, card, active);

  const apiText = (err: unknown): string => {
    if (err instanceof ApiError && !err.isNetwork) {
      const refusal = refusalText(err.code, err.details, i18n.language);
      if (refusal) return t(refusal.key, refusal.params);
      const text = errorTextOf(err);
      return tApp(text.key, text.params);
    }
    return tApp('send.toast.connectionTrouble');
  };

  const callbacksFor = (run: ActiveUpload) => ({
    signal: run.controller.signal,
    onProgress: (p: UploadProgress) => {
      if (active.current === run) setProgress(p);
    },
    onWarning: (warning: Parameters<typeof warningToast>[0]) => {
      if (active.current !== run) return;
      const toast = warningToast(warning);
      push({
        kind: 'warning',
        title: tApp(toast.title),
        body: 'message' in toast ? tApp(toast.body, { message: toast.message }) : tApp(toast.body),
      });
    },
  });

  const finished = (run: ActiveUpload) => {
    if (active.current !== run) return;
    active.current = null;
    setProgress(null);
    setStep('done');
  };

  const failed = (run: ActiveUpload, err: unknown) => {
    if (active.current !== run) return;
    active.current = null;
    setProgress(null);
    setStep('form');
    if (err instanceof UploadCancelledError || run.controller.signal.aborted) return;
    const closed = loadStateOf(err);
    if (closed && closed.status === 'closed') {
      onClosed(closed);
      return;
    }
    if (err instanceof UploadFailedError) {
      push({
        kind: 'error',
        title: tApp('send.toast.couldNotSend'),
        body: tApp('send.toast.couldNotSendBody', { file: err.fileName }),
      });
      push({ kind: 'info', title: tApp('send.toast.connectionError'), body: tApp('send.toast.resumeWithin') });
      return;
    }
    setFormError(apiText(err));
  };

  const upload = async (senderToken: string) => {
    if (!request) return;
    const run: ActiveUpload = { controller: new AbortController(), transfer: null };
    active.current = run;
    setProgress(startingProgress(files, false));
    setStep('uploading');
    try {
      const created = await startRequestUpload(
        request.id,
        {
          senderName: details.name.trim(),
          senderEmail: details.email.trim().toLowerCase(),
          message: details.message,
          fileObjects: files.map((f) =>
            f.itemPath
              ? { fileName: f.fileName, size: f.size, itemPath: f.itemPath }
              : { fileName: f.fileName, size: f.size },
          ),
          lang,
        },
        senderToken,
        run.controller.signal,
      );
      run.transfer = created;
      const { uploadNewTransfer } = await sendFlow();
      await uploadNewTransfer(created, files, callbacksFor(run), { storage });
      finished(run);
    } catch (err) {
      failed(run, err);
    }
  };

  /** Carries on the checkpoint's upload with the files picked again (no new verification: its token is the upload's). */
  const resume = async (checkpoint: UploadCheckpoint) => {
    const run = resumingRun(checkpoint);
    active.current = run;
    setFormError(null);
    setProgress(startingProgress(files, true));
    setStep('uploading');
    try {
      const { resumeTransfer } = await sendFlow();
      const result = await resumeTransfer(checkpoint, files, callbacksFor(run), { storage });
      if (result) finished(run);
      else {
        failed(run, new UploadCancelledError());
        push({ kind: 'info', title: tApp('send.toast.resumeExpired'), body: tApp('send.toast.resumeExpiredBody') });
      }
    } catch (err) {
      failed(run, err);
    }
  };

  const cancel = () => {
    if (!stopUpload(active, storage)) return;
    setProgress(null);
    setStep('form');
    push({ kind: 'info', title: tApp('send.toast.uploadCancelled'), body: tApp('send.toast.youAborted') });
  };

  return { step, setStep, progress, formError, setFormError, upload, resume, cancel };
}
