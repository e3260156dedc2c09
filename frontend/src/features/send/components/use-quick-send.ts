import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterFilesForRole } from '@domain/file-filters';
import type { CompleteResponse } from '@domain/transfer-api';
import { paths } from '@/app/paths';
import { env } from '@/config/env';
import { useToasts } from '@/lib/use-toasts';
import { warningToast } from '@/shared/upload/progress-text';
import { sendFlow, startingProgress, useUploadCardSteps, type ActiveUpload } from '@/shared/upload/active-upload';
import { resumingRun, stopUpload } from '@/shared/upload/upload-run';
import { createTransfer, type CreateBody, type SenderAuth } from '@/shared/upload/send-api';
import type { UploadCallbacks } from '@/shared/upload/send-flow';
import {
  GUEST,
  addFiles,
  e2eModeOf,
  initialForm,
  sendAnother,
  stepAfterSubmit,
  toDraftInput,
  type SendForm,
  type SendStep,
  type SenderContext,
  type TeamMemberOption,
} from '@/shared/send-form/send-state';
import type { SendDefaults } from '@/shared/send-form/send-defaults';
import type { PickedFile } from '@/shared/upload/picked-files';
import { rememberGuestSend, rememberedSenderEmail } from '../sender-memory';
import { findCheckpoint, type UploadCheckpoint } from '@/shared/upload/checkpoint';
import type { UploadProgress } from '@/shared/upload/engine';
import { UploadCancelledError } from '@/shared/upload/errors';
import { sendFailureToasts } from './send-failure-toasts';

/** A signed-in sender (the dashboard passes one; the home page passes none). */
export interface QuickSendSession {
  readonly accessToken: string;
  readonly email: string;
  readonly role: string;
  readonly teamMembers?: readonly TeamMemberOption[];
  /** what a new form starts with (send-defaults.ts, from the account's transferSettings) */
  readonly defaults?: SendDefaults;
}

interface QuickSendOptions {
  readonly session?: QuickSendSession;
  onSent?(result: CompleteResponse): void;
  onUploadStart?(): void;
}

/**
 * An encrypted send's create body: a fresh key (random for a link, from the passphrase for an
 * email send), every file entry sealed (its stored size, salt, plaintext size) and the public
 * parameters. The crypto code loads only here, when a sender chose encryption.
 */
async function encryptedDraft(draft: CreateBody, mode: 'link' | 'passphrase', passphrase: string) {
  const { newSendKey, sealedEntry, linkWithKey } = await import('@/shared/upload/e2e-seal');
  const { key, params } = await newSendKey(mode === 'link' ? { mode } : { mode, passphrase });
  const seal = <F extends { size: number }>(list: readonly F[] | undefined) => list?.map((f) => sealedEntry(f));
  const body: CreateBody = {
    ...draft,
    e2e: params,
    fileObjects: seal(draft.fileObjects),
    ...(draft.recordedVideos ? { recordedVideos: seal(draft.recordedVideos) } : {}),
    ...(draft.voiceMemo ? { voiceMemo: seal(draft.voiceMemo) } : {}),
  };
  return { key, body, linkWithKey: (link: string) => linkWithKey(link, key) };
}

/** Quick send's steps and the upload behind them: start, resume, cancel, finish or fail. */
/** Keeps an encrypted link's key for this browser's dashboard (loaded only for encrypted link sends). */
async function rememberKey(id: string, keyLink: string): Promise<void> {
  const { rememberLinkKey } = await import('@/shared/e2e/link-keys');
  rememberLinkKey(id, keyLink);
}

export function useQuickSend({ session, onSent, onUploadStart }: QuickSendOptions) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const sessionRole = session?.role;
  const sessionEmail = session?.email;
  const sender = useMemo<SenderContext>(
    () => (sessionRole && sessionEmail ? { role: sessionRole, signedIn: true, email: sessionEmail } : GUEST),
    [sessionRole, sessionEmail],
  );
  // A signed-in sender's first form starts from their saved defaults; 'Send Another?' resets as spec §4 says.
  const [form, setForm] = useState<SendForm>(() => ({
    ...initialForm(session ? '' : rememberedSenderEmail()),
    ...session?.defaults,
  }));
  const [step, setStep] = useState<SendStep>('form');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [done, setDone] = useState<CompleteResponse | null>(null);
  // shared at the start: the link works (or the recipients were mailed) while the upload runs
  const [live, setLive] = useState<{ link: string; mailed: boolean } | null>(null);
  // an end-to-end encrypted send: how its key travels, and its link with the key in the fragment
  const [sealed, setSealed] = useState<{ mode: 'link' | 'passphrase'; link?: string } | null>(null);
  const toasts = useToasts();
  const { push } = toasts;
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

  const finish = (run: ActiveUpload, result: CompleteResponse, sent: SendForm, keyLink?: string) => {
    if (active.current !== run) return;
    active.current = null;
    if (!sender.signedIn) rememberGuestSend(sent.senderEmail);
    setDone(keyLink ? { ...result, link: keyLink } : result);
    setLive(null);
    setProgress(null);
    setStep('done');
    onSent?.(result);
  };

  const fail = (run: ActiveUpload, err: unknown) => {
    // A confirmed cancel has already reset the view.
    if (active.current !== run) return;
    active.current = null;
    setLive(null);
    setProgress(null);
    setStep('form');
    if (err instanceof UploadCancelledError || run.controller.signal.aborted) return;
    for (const toast of sendFailureToasts(err, run.transfer !== null, trialAction, t)) push(toast);
  };

  /** Marks `run` as the upload under way and shows its progress from the first byte. */
  const begin = (run: ActiveUpload, sent: SendForm, resuming: boolean) => {
    active.current = run;
    setProgress(startingProgress(sent.files, resuming));
    setStep('uploading');
    onUploadStart?.();
  };

  const startSend = async (auth: SenderAuth, sent: SendForm) => {
    const run: ActiveUpload = { controller: new AbortController(), transfer: null };
    begin(run, sent, false);
    const mode = e2eModeOf(sent, sender);
    setSealed(mode ? { mode } : null);
    try {
      const draft = { ...toDraftInput(sent, sender), lang };
      // the key is made here and stays here: the body carries only its public parameters
      const e2e = mode ? await encryptedDraft(draft, mode, sent.e2ePassphrase ?? '') : null;
      const created = await createTransfer(e2e ? e2e.body : draft, auth, run.controller.signal);
      run.transfer = created;
      const keyLink = e2e && mode === 'link' ? e2e.linkWithKey(created.link) : undefined;
      if (keyLink) void rememberKey(created.id, keyLink);
      if (keyLink && mode && active.current === run) setSealed({ mode, link: keyLink });
      if (active.current === run && (created.sendAs === 'link' || sent.mailNow))
        setLive({ link: keyLink ?? created.link, mailed: created.sendAs === 'email' });
      const { uploadNewTransfer } = await sendFlow();
      const options = e2e ? { e2eKey: e2e.key } : {};
      finish(run, await uploadNewTransfer(created, sent.files, callbacksFor(run), options), sent, keyLink);
    } catch (err) {
      fail(run, err);
    }
  };

  const startResume = async () => {
    if (!checkpoint) return;
    const run = resumingRun(checkpoint);
    const sent = form;
    begin(run, sent, true);
    setSealed(null);
    try {
      const { resumeTransfer } = await sendFlow();
      const result = await resumeTransfer(checkpoint, sent.files, callbacksFor(run));
      // an encrypted link send's link gets its key back from the checkpoint
      const keyLink =
        result && checkpoint.e2eKey && checkpoint.e2eMode === 'link'
          ? await import('@/shared/upload/e2e-seal').then((m) =>
              m.linkWithKey(result.link, m.keyFromText(checkpoint.e2eKey!)),
            )
          : undefined;
      if (keyLink) {
        void rememberKey(checkpoint.id, keyLink);
        setSealed({ mode: 'link', link: keyLink });
      }
      if (result) finish(run, result, sent, keyLink);
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
    setLive(null);
    setProgress(null);
    setStep('form');
    push({ kind: 'info', title: t('send.toast.uploadCancelled'), body: t('send.toast.youAborted') });
  };

  const submit = (ready: SendForm) => {
    setForm(ready);
    if (stepAfterSubmit(sender, ready.sendAs) === 'verify') setStep('verify');
    else if (session) void startSend({ kind: 'account', accessToken: session.accessToken }, ready);
  };

  const again = () => {
    setForm((f) => sendAnother(f));
    setDone(null);
    setSealed(null);
    setStep('form');
  };

  return {
    sender,
    lang,
    form,
    setForm,
    step,
    setStep,
    progress,
    live,
    done,
    sealed,
    toasts,
    card,
    checkpoint,
    trialAction,
    addPicked,
    startSend,
    startResume,
    cancel,
    submit,
    again,
  };
}
