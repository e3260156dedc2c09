import { useCallback, useEffect, useId, useMemo, useRef, useState, type DragEvent, type FormEvent, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { dedupeFiles, fileKey, totalSize } from '@domain/file-filters';
import { REQUEST_MESSAGE_MAX, isRequestId, type PublicRequestResponse } from '@domain/requests-api';
import { FileSection } from '@/shared/send-form/components/file-section';
import { ProgressView } from '@/shared/upload/components/progress-view';
import { ToastStack } from '@/components/toast-stack';
import { VerifyStep } from '@/shared/upload/components/verify-step';
import { useToasts } from '@/lib/use-toasts';
import { entriesOfDrop, filesFromEntries, pickedFromFiles } from '@/shared/upload/picked-files';
import { warningToast } from '@/shared/upload/progress-text';
import { sendFlow, startingProgress, useUploadCardSteps, type ActiveUpload } from '@/shared/upload/active-upload';
import type { PickedFile } from '@/shared/upload/picked-files';
import { findCheckpoint, type UploadCheckpoint } from '@/shared/upload/checkpoint';
import type { UploadProgress } from '@/shared/upload/engine';
import { UploadCancelledError, UploadFailedError } from '@/shared/upload/errors';
import { formatDateTime } from '@/lib/format-date-time';
import { errorTextOf } from '@/i18n/error-keys';
import { ApiError } from '@/lib/api';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchPublicRequest, startRequestUpload } from '../api/requests-api';
import { effectiveRules, ruleProblems, visitorProblems, type RuleProblem, type VisitorField } from '../request-rules';
import { requestCheckpointStorage } from '../request-checkpoints';
import { refusalText } from '../request-errors';
import { closedKind, type ClosedKind } from '../request-state';
import { formatSize } from '@/lib/format-size';
import '@/shared/send-form/quick-send.css';
import '../requests.css';

type Load =
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly request: PublicRequestResponse }
  | { readonly status: 'missing' }
  | { readonly status: 'closed'; readonly kind: ClosedKind }
  | { readonly status: 'failed' };

type Step = 'form' | 'verify' | 'uploading' | 'done';

/** A refusal of GET /r/{id} or POST /r/{id}/uploads as a page state, if it is one. */
function loadStateOf(err: unknown): Load | null {
  if (!(err instanceof ApiError)) return null;
  if (err.status === 404) return { status: 'missing' };
  if (err.status === 410) return { status: 'closed', kind: closedKind(err.code, err.details) };
  return null;
}

/**
 * The public file request page /r/{id} (spec §2, §6): who asks, what for, until when and under
 * which rules; the visitor adds files or folders, says who they are, verifies their address
 * with the mailed 5-digit code, and uploads with the send form's resumable engine.
 */
export function PublicRequestPage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('requests');
  const { t: tApp } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const ids = useId();
  const [load, setLoad] = useState<Load>(() => (isRequestId(id) ? { status: 'loading' } : { status: 'missing' }));
  const [attempt, setAttempt] = useState(0);
  const [files, setFiles] = useState<readonly PickedFile[]>([]);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState('');
  const [tried, setTried] = useState(false);
  const [step, setStep] = useState<Step>('form');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const dragDepth = useRef(0);
  const active = useRef<ActiveUpload | null>(null);
  const card = useRef<HTMLDivElement>(null);
  const { toasts, push, dismiss } = useToasts();

  const request = load.status === 'ready' ? load.request : null;
  usePageTitle(request ? request.title : t('public.pageTitle'));

  useEffect(() => {
    if (!isRequestId(id)) {
      setLoad({ status: 'missing' });
      return;
    }
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    fetchPublicRequest(id, controller.signal).then(
      (r) => setLoad({ status: 'ready', request: r }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setLoad(loadStateOf(err) ?? { status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [id, attempt]);

  useUploadCardSteps(step, card, active);

  const rules = useMemo(() => (request ? effectiveRules(request) : null), [request]);
  // A reload mid-upload leaves a checkpoint (under this request's own key): picking the same
  // files again offers to carry on where it stopped.
  const storage = useMemo(() => requestCheckpointStorage(id), [id]);
  const checkpoint: UploadCheckpoint | null = useMemo(
    () => (step === 'form' && files.length > 0 ? findCheckpoint(files, Date.now(), storage) : null),
    [files, step, storage],
  );
  const problems: RuleProblem[] = rules ? ruleProblems(files, rules) : [];
  const details = { name, email, message };
  const fieldProblems: VisitorField[] = visitorProblems(details);

  const addPicked = useCallback((incoming: PickedFile[]) => {
    setFiles((current) => {
      const { kept } = dedupeFiles(incoming, current);
      return kept.length ? [...current, ...kept] : current;
    });
    setFormError(null);
    sendFlow().catch(() => undefined);
  }, []);

  const problemText = (p: RuleProblem): string => {
    if (p.kind === 'type') return t('public.problems.type', { files: p.files.join(', '), count: p.files.length });
    if (p.kind === 'size') return t('public.problems.size', { size: formatSize(p.bytes, i18n.language), max: formatSize(p.max, i18n.language) });
    return t('public.problems.count', { count: p.count, max: p.max });
  };

  const apiText = (err: unknown): string => {
    if (err instanceof ApiError && !err.isNetwork) {
      const refusal = refusalText(err.code, err.details, i18n.language);
      if (refusal) return t(refusal.key, refusal.params);
      const text = errorTextOf(err);
      return tApp(text.key, text.params);
    }
    return tApp('send.toast.connectionTrouble');
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (files.length === 0 || problems.length > 0 || fieldProblems.length > 0) {
      const first = files.length === 0 || problems.length > 0 ? 'rq-files' : `${ids}-${fieldProblems[0]}`;
      document.getElementById(first)?.focus();
      return;
    }
    setFormError(null);
    setStep('verify');
  };

  const callbacksFor = (run: ActiveUpload) => ({
    signal: run.controller.signal,
    onProgress: (p: UploadProgress) => {
      if (active.current === run) setProgress(p);
    },
    onWarning: (warning: Parameters<typeof warningToast>[0]) => {
      if (active.current !== run) return;
      const toast = warningToast(warning);
      push({ kind: 'warning', title: tApp(toast.title), body: 'message' in toast ? tApp(toast.body, { message: toast.message }) : tApp(toast.body) });
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
      setLoad(closed);
      return;
    }
    if (err instanceof UploadFailedError) {
      push({ kind: 'error', title: tApp('send.toast.couldNotSend'), body: tApp('send.toast.couldNotSendBody', { file: err.fileName }) });
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
          senderName: name.trim(),
          senderEmail: email.trim().toLowerCase(),
          message,
          fileObjects: files.map((f) => (f.itemPath ? { fileName: f.fileName, size: f.size, itemPath: f.itemPath } : { fileName: f.fileName, size: f.size })),
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
  const resume = async () => {
    if (!checkpoint) return;
    const run: ActiveUpload = { controller: new AbortController(), transfer: { id: checkpoint.id, uploadToken: checkpoint.uploadToken } };
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
    const run = active.current;
    if (!run) return;
    active.current = null;
    run.controller.abort();
    if (run.transfer) {
      const transfer = run.transfer;
      sendFlow().then(({ cancelUpload }) => cancelUpload(transfer, { storage })).catch(() => undefined);
    }
    setProgress(null);
    setStep('form');
    push({ kind: 'info', title: tApp('send.toast.uploadCancelled'), body: tApp('send.toast.youAborted') });
  };

  const onDragEnter = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    dragDepth.current += 1;
    setDragging(true);
  };
  const onDragLeave = () => {
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    dragDepth.current = 0;
    setDragging(false);
    const { entries, plainFiles } = entriesOfDrop(event.dataTransfer);
    if (plainFiles.length) addPicked(pickedFromFiles(plainFiles));
    if (entries.length) {
      void filesFromEntries(entries).then(({ files: dropped, unreadable }) => {
        if (dropped.length) addPicked(dropped);
        if (unreadable.length) push({ kind: 'warning', title: tApp('send.toast.fileLocked'), body: `${tApp('send.toast.fileLockedBody')}: ${unreadable.join(', ')}` });
      });
    }
  };

  if (load.status === 'loading') {
    return (
      <main className="container rq-public">
        <p className="rq-status" role="status" data-testid="request-loading">
          {t('public.loading')}
        </p>
      </main>
    );
  }
  if (load.status !== 'ready' || !request || !rules) {
    const kind: 'missing' | ClosedKind | 'failed' = load.status === 'closed' ? load.kind : load.status === 'missing' ? 'missing' : 'failed';
    return (
      <main className="container rq-public">
        <section className="rq-state-card" data-testid="request-state" data-state={kind} aria-labelledby={`${ids}-state`}>
          <h1 id={`${ids}-state`}>{t(`public.state.${kind}.title`)}</h1>
          <p>{t(`public.state.${kind}.body`)}</p>
          {load.status === 'failed' && (
            <button type="button" className="btn btn-primary" onClick={() => setAttempt((n) => n + 1)} data-testid="request-retry">
              {t('public.retry')}
            </button>
          )}
        </section>
      </main>
    );
  }

  // A requester without a name on their profile (nor a company) is not named.
  const named = request.requesterName.trim() !== '';
  // Broken rules show as soon as the files break them; an empty list only once the visitor tried.
  const filesProblem = problems.length > 0 ? problems.map(problemText).join(' ') : tried && files.length === 0 ? t('public.problems.noFiles') : undefined;
  const fieldError = (field: VisitorField) => (tried && fieldProblems.includes(field) ? t(`public.fieldErrors.${field}`) : undefined);
  const ruleItems = [
    t('public.rules.maxBytes', { size: formatSize(rules.maxBytes, i18n.language) }),
    rules.allowedTypes.length > 0 ? t('public.rules.types', { types: rules.allowedTypes.join(', ') }) : t('public.rules.anyType'),
    t('public.rules.maxFiles', { count: rules.maxFiles }),
  ];

  // the requester's accent colour on the page's buttons (text black or white, chosen by the server)
  const accent = request.branding?.accentColor;
  const brandStyle = accent ? ({ '--brand-accent': accent, '--brand-accent-text': request.branding?.accentTextColor ?? '#fff' } as CSSProperties) : undefined;

  return (
    <main className={accent ? 'container rq-public rq-branded' : 'container rq-public'} style={brandStyle} data-testid="request-page">
      <div className="rq-public-grid">
        <section className="rq-intro" aria-labelledby={`${ids}-title`} data-testid="request-intro">
          {request.logoUrl && (
            <img className="rq-logo" src={request.logoUrl} alt={named ? t('public.logoAlt', { name: request.requesterName }) : t('public.logoAltNoName')} data-testid="request-logo" />
          )}
          <p className="rq-eyebrow" data-testid="request-requester">
            {named ? t('public.asks', { name: request.requesterName }) : t('public.asksNoName')}
          </p>
          <h1 id={`${ids}-title`} data-testid="request-title">
            {request.title}
          </h1>
          {request.message && (
            <p className="rq-message" data-testid="request-message">
              {request.message}
            </p>
          )}
          {request.dueDate !== null && (
            <p className="rq-due" data-testid="request-due">
              {t('public.due', { date: formatDateTime(request.dueDate, lang) })}
            </p>
          )}
          <h2 className="rq-rules-title">{t('public.rules.title')}</h2>
          <ul className="rq-rules" data-testid="request-rules">
            {ruleItems.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </section>

        <div ref={card} className="qs-card rq-card" data-testid="request-upload" data-step={step}>
          {step === 'form' && (
            <form
              className="qs-form"
              noValidate
              onSubmit={submit}
              onDragEnter={onDragEnter}
              onDragOver={(e) => {
                if (e.dataTransfer.types.includes('Files')) e.preventDefault();
              }}
              onDragLeave={onDragLeave}
              onDrop={onDrop}
              aria-labelledby={`${ids}-form`}
            >
              <h2 id={`${ids}-form`} className="qs-title" tabIndex={-1} data-step-heading>
                {t('public.formTitle')}
              </h2>
              {dragging && (
                <div className="qs-drop-overlay" aria-hidden="true">
                  {tApp('send.form.dropHere')}
                </div>
              )}
              <div id="rq-files" tabIndex={-1} className="rq-files">
                <FileSection
                  files={files}
                  summary={{ count: files.length, bytes: totalSize(files), limitBytes: rules.maxBytes, overLimit: totalSize(files) > rules.maxBytes }}
                  problem={filesProblem}
                  onAdd={addPicked}
                  onRemove={(key) => setFiles((current) => current.filter((f) => fileKey(f) !== key))}
                />
              </div>
              {checkpoint && (
                <div className="qs-resume" role="status">
                  <div>
                    <p className="qs-resume-title">{tApp('send.form.resumeTitle')}</p>
                    <p className="qs-hint">{tApp('send.form.resumeBody')}</p>
                  </div>
                  <button type="button" className="btn btn-ghost btn-sm" onClick={() => void resume()} data-testid="resume-button">
                    {tApp('send.form.resumeAction')}
                  </button>
                </div>
              )}
              <div className="qs-field">
                <label htmlFor={`${ids}-name`} className="qs-label">
                  {t('public.name')}
                </label>
                <input
                  id={`${ids}-name`}
                  className={`qs-input${fieldError('name') ? ' qs-input-invalid' : ''}`}
                  type="text"
                  autoComplete="name"
                  maxLength={200}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  aria-invalid={fieldError('name') ? true : undefined}
                  aria-describedby={fieldError('name') ? `${ids}-name-error` : undefined}
                  data-testid="request-name"
                />
                {fieldError('name') && (
                  <p id={`${ids}-name-error`} className="qs-field-error">
                    {fieldError('name')}
                  </p>
                )}
              </div>
              <div className="qs-field">
                <label htmlFor={`${ids}-email`} className="qs-label">
                  {t('public.email')}
                </label>
                <input
                  id={`${ids}-email`}
                  className={`qs-input${fieldError('email') ? ' qs-input-invalid' : ''}`}
                  type="email"
                  autoComplete="email"
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                  aria-invalid={fieldError('email') ? true : undefined}
                  aria-describedby={fieldError('email') ? `${ids}-email-error` : `${ids}-email-hint`}
                  data-testid="request-email"
                />
                {fieldError('email') ? (
                  <p id={`${ids}-email-error`} className="qs-field-error">
                    {fieldError('email')}
                  </p>
                ) : (
                  <p id={`${ids}-email-hint`} className="qs-hint">
                    {t('public.emailHint')}
                  </p>
                )}
              </div>
              <div className="qs-field">
                <label htmlFor={`${ids}-message`} className="qs-label">
                  {t('public.message')}
                </label>
                <textarea
                  id={`${ids}-message`}
                  className="qs-input qs-textarea"
                  rows={3}
                  maxLength={REQUEST_MESSAGE_MAX}
                  value={message}
                  onChange={(e) => setMessage(e.target.value)}
                  data-testid="request-visitor-message"
                />
              </div>
              {formError && (
                <p className="qs-field-error" role="alert" data-testid="request-form-error">
                  {formError}
                </p>
              )}
              <button type="submit" className="btn btn-primary btn-block" data-testid="request-submit">
                {t('public.submit')}
              </button>
            </form>
          )}
          {step === 'verify' && (
            <VerifyStep email={email.trim().toLowerCase()} lang={lang} onVerified={(token) => void upload(token)} onBack={() => setStep('form')} />
          )}
          {step === 'uploading' && progress && <ProgressView progress={progress} onCancel={cancel} />}
          {step === 'done' && (
            <section className="qs-done" aria-labelledby={`${ids}-done`} data-testid="request-done">
              <h2 id={`${ids}-done`} className="qs-title qs-center" tabIndex={-1} data-step-heading>
                {t('public.done.title')}
              </h2>
              <p className="qs-lead qs-center">
                {named ? t('public.done.body', { name: request.requesterName, count: files.length }) : t('public.done.bodyNoName', { count: files.length })}
              </p>
              <button
                type="button"
                className="btn btn-ghost btn-block"
                onClick={() => {
                  setFiles([]);
                  setMessage('');
                  setTried(false);
                  setStep('form');
                }}
                data-testid="request-upload-more"
              >
                {t('public.done.more')}
              </button>
            </section>
          )}
          <ToastStack toasts={toasts} onDismiss={dismiss} />
        </div>
      </div>
    </main>
  );
}
