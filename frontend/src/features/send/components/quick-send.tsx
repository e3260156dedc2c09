import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ContactView } from '@domain/auth-api';
import { filterFilesForRole } from '@domain/file-filters';
import type { CompleteResponse } from '@domain/transfer-api';
import { paths } from '@/app/paths';
import { env } from '@/config/env';
import { ApiError } from '@/lib/api';
import { errorTextOf } from '@/i18n/error-keys';
import { useIssueText } from '../hooks/use-issue-text';
import { useToasts } from '@/lib/use-toasts';
import { warningToast } from '@/shared/upload/progress-text';
import { sendFlow, startingProgress, useUploadCardSteps, type ActiveUpload } from '@/shared/upload/active-upload';
import { resumingRun, stopUpload } from '@/shared/upload/upload-run';
import { createTransfer, type SenderAuth } from '@/shared/upload/send-api';
import type { UploadCallbacks } from '@/shared/upload/send-flow';
import type { SendDefaults } from '@/shared/send-form/send-defaults';
import {
  GUEST,
  addFiles,
  initialForm,
  sendAnother,
  stepAfterSubmit,
  toDraftInput,
  type SendForm,
  type SendStep,
  type SenderContext,
  type TeamMemberOption,
} from '@/shared/send-form/send-state';
import type { PickedFile } from '@/shared/upload/picked-files';
import { rememberGuestSend, rememberedSenderEmail } from '../sender-memory';
import { findCheckpoint, type UploadCheckpoint } from '@/shared/upload/checkpoint';
import type { UploadProgress } from '@/shared/upload/engine';
import { UploadCancelledError, UploadFailedError } from '@/shared/upload/errors';
import { DoneView } from './done-view';
import { ProgressView } from '@/shared/upload/components/progress-view';
import { SendFormView } from './send-form';
import { ToastStack } from '@/components/toast-stack';
import { VerifyStep } from '@/shared/upload/components/verify-step';
import '@/shared/send-form/quick-send.css';

/** A signed-in sender (the dashboard passes one; the home page passes none). */
export interface QuickSendSession {
  readonly accessToken: string;
  readonly email: string;
  readonly role: string;
  readonly teamMembers?: readonly TeamMemberOption[];
  /** what a new form starts with (send-defaults.ts, from the account's transferSettings) */
  readonly defaults?: SendDefaults;
}

/**
 * Quick send (spec §2, §4): the form, the guest's email verification, the upload's progress
 * and the done view, with the notifications of §8.
 */
interface QuickSendProps {
  readonly session?: QuickSendSession;
  /** the signed-in sender's contacts, suggested as recipients */
  readonly contacts?: readonly ContactView[];
  /** a transfer finished (the dashboard then reloads the user's usage) */
  onSent?(result: CompleteResponse): void;
  /** an upload (or its resume) started: home stops its made-up example activity then */
  onUploadStart?(): void;
}

export function QuickSend({ session, contacts, onSent, onUploadStart }: QuickSendProps) {
  const { t, i18n } = useTranslation();
  // A refusal is told by its code, never by the API's English message.
  const apiText = (err: ApiError) => {
    const text = errorTextOf(err);
    return t(text.key, text.params);
  };
  const navigate = useNavigate();
  const lang = i18n.resolvedLanguage ?? 'en';
  const sessionRole = session?.role;
  const sessionEmail = session?.email;
  const sender = useMemo<SenderContext>(
    () => (sessionRole && sessionEmail ? { role: sessionRole, signedIn: true, email: sessionEmail } : GUEST),
    [sessionRole, sessionEmail],
  );
  const issueText = useIssueText(sender.role);
  // A signed-in sender's first form starts from their saved defaults; 'Send Another?' resets as spec §4 says.
  const [form, setForm] = useState<SendForm>(() => ({
    ...initialForm(session ? '' : rememberedSenderEmail()),
    ...session?.defaults,
  }));
  const [step, setStep] = useState<SendStep>('form');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [done, setDone] = useState<CompleteResponse | null>(null);
  const { toasts, push, dismiss } = useToasts();
  const active = useRef<ActiveUpload | null>(null);
  const card = useRef<HTMLDivElement>(null);

  const checkpoint: UploadCheckpoint | null = useMemo(
    () => (step === 'form' && form.files.length > 0 ? findCheckpoint(form.files, Date.now()) : null),
    [form.files, step],
  );

  useUploadCardSteps(step, card, active);

  const trialAction = { label: t('send.toast.getTrial'), to: paths.pricing({ plan: 'premium' }) };

  const addPicked = useCallback(
    (incoming: PickedFile[]) => {
      for (const { file, reason } of filterFilesForRole(sender.role, incoming).removed) {
        push({
          kind: 'info',
          title: reason === 'insecure' ? t('send.toast.insecureFile') : t('send.toast.fileRemoved'),
          body: t('send.toast.removedFile', { file: file.fileName }),
          action: { label: t('send.toast.emailSupport'), href: `mailto:${env.supportEmail}` },
        });
      }
      setForm((current) => addFiles(current, incoming, sender.role).form);
      // Files are in: fetch the upload engine now, so it is there when 'Transfer' is pressed.
      sendFlow().catch(() => undefined);
    },
    [push, sender.role, t],
  );

  const callbacksFor = (run: ActiveUpload): UploadCallbacks => ({
    signal: run.controller.signal,
    onProgress: (p) => {
      if (active.current === run) setProgress(p);
    },
    onWarning: (warning) => {
      if (active.current !== run) return;
      const toast = warningToast(warning);
      push({
        kind: 'warning',
        title: t(toast.title),
        body: 'message' in toast ? t(toast.body, { message: toast.message }) : t(toast.body),
      });
    },
  });

  const finish = (run: ActiveUpload, result: CompleteResponse, sent: SendForm) => {
    if (active.current !== run) return;
    active.current = null;
    if (!sender.signedIn) rememberGuestSend(sent.senderEmail);
    setDone(result);
    setProgress(null);
    setStep('done');
    onSent?.(result);
  };

  const fail = (run: ActiveUpload, err: unknown) => {
    // A confirmed cancel has already reset the view.
    if (active.current !== run) return;
    active.current = null;
    setProgress(null);
    setStep('form');
    if (err instanceof UploadCancelledError || run.controller.signal.aborted) return;
    if (err instanceof UploadFailedError) {
      const body = t('send.toast.couldNotSendBody', { file: err.fileName });
      push({
        kind: 'error',
        title: t('send.toast.couldNotSend'),
        body: err.requestId ? `${body} ${t('send.toast.requestId', { id: err.requestId })}` : body,
      });
      push({ kind: 'info', title: t('send.toast.connectionError'), body: t('send.toast.resumeWithin') });
    } else if (err instanceof ApiError && err.code === 'over_transfer_limit') {
      push({
        kind: 'info',
        title: t('send.toast.overTransferLimit'),
        body: t('dashboard.limit.upgrade'),
        action: trialAction,
      });
    } else if (err instanceof ApiError && err.isNetwork) {
      push({
        kind: 'error',
        title: t('send.toast.connectionError'),
        body: run.transfer ? t('send.toast.resumeWithin') : t('send.toast.connectionTrouble'),
      });
    } else {
      push({
        kind: 'error',
        title: t('send.toast.sendFailed'),
        body: err instanceof ApiError && !err.isNetwork ? apiText(err) : t('send.toast.connectionTrouble'),
      });
    }
  };

  const startSend = async (auth: SenderAuth, sent: SendForm) => {
    const run: ActiveUpload = { controller: new AbortController(), transfer: null };
    active.current = run;
    setProgress(startingProgress(sent.files, false));
    setStep('uploading');
    onUploadStart?.();
    try {
      const created = await createTransfer({ ...toDraftInput(sent, sender), lang }, auth, run.controller.signal);
      run.transfer = created;
      const { uploadNewTransfer } = await sendFlow();
      finish(run, await uploadNewTransfer(created, sent.files, callbacksFor(run)), sent);
    } catch (err) {
      fail(run, err);
    }
  };

  const startResume = async () => {
    if (!checkpoint) return;
    const run = resumingRun(checkpoint);
    const sent = form;
    active.current = run;
    setProgress(startingProgress(sent.files, true));
    setStep('uploading');
    onUploadStart?.();
    try {
      const { resumeTransfer } = await sendFlow();
      const result = await resumeTransfer(checkpoint, sent.files, callbacksFor(run));
      if (result) finish(run, result, sent);
      else {
        fail(run, new UploadCancelledError());
        push({ kind: 'info', title: t('send.toast.resumeExpired'), body: t('send.toast.resumeExpiredBody') });
      }
    } catch (err) {
      fail(run, err);
    }
  };

  const cancel = () => {
    if (!stopUpload(active)) return;
    setProgress(null);
    setStep('form');
    push({ kind: 'info', title: t('send.toast.uploadCancelled'), body: t('send.toast.youAborted') });
  };

  const onSubmit = (ready: SendForm) => {
    setForm(ready);
    if (stepAfterSubmit(sender, ready.sendAs) === 'verify') setStep('verify');
    else if (session) void startSend({ kind: 'account', accessToken: session.accessToken }, ready);
  };

  return (
    <div ref={card} className="qs-card" data-testid="quick-send" data-step={step}>
      {step === 'form' && (
        <SendFormView
          form={form}
          sender={sender}
          teamMembers={session?.teamMembers}
          contacts={session ? contacts : undefined}
          resumable={checkpoint !== null}
          onChange={setForm}
          onAddFiles={addPicked}
          onRecipientsOverLimit={() =>
            push({
              kind: 'info',
              title: t('send.toast.tooManyPeople'),
              body: issueText({ code: 'too_many_recipients' }),
              action: trialAction,
            })
          }
          onUnreadable={(names) =>
            push({
              kind: 'warning',
              title: t('send.toast.fileLocked'),
              body: `${t('send.toast.fileLockedBody')}: ${names.join(', ')}`,
            })
          }
          onSubmit={onSubmit}
          onCheckFailed={() =>
            push({ kind: 'error', title: t('send.toast.connectionError'), body: t('send.toast.connectionTrouble') })
          }
          onResume={() => void startResume()}
        />
      )}
      {step === 'verify' && (
        <VerifyStep
          email={form.senderEmail.trim().toLowerCase()}
          lang={lang}
          onVerified={(senderToken) => void startSend({ kind: 'guest', senderToken }, form)}
          onBack={() => setStep('form')}
        />
      )}
      {step === 'uploading' && progress && <ProgressView progress={progress} onCancel={cancel} />}
      {step === 'done' && done && (
        <DoneView
          link={done.link}
          recipients={done.recipients}
          signedIn={sender.signedIn}
          onSendAnother={() => {
            setForm((f) => sendAnother(f));
            setDone(null);
            setStep('form');
          }}
          onKeepFiles={() => navigate(paths.pricing({ plan: 'premium' }))}
        />
      )}
      <ToastStack toasts={toasts} onDismiss={dismiss} />
    </div>
  );
}
