import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { VISITOR_NAME_MAX_CHARS } from '@domain/review';
import type { DownloadAccess } from '@/shared/downloads/download-api';
import { ApiError } from '@/lib/api';
import { sendReviewCode, verifyReviewCode, type Visitor } from '@/features/downloads/review/review-calls';
import { problemOf } from '@/features/downloads/review/review-logic';
import { rememberVisitor } from '@/features/downloads/review/visitor-store';
import { useProblemText } from '@/features/downloads/review/problem-text';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
const CODE = /^\d{5}$/u;

type Step = 'choose' | 'email' | 'code' | 'name';

/**
 * "Who is commenting?", asked once before the first write: a verified address (the 5-digit code
 * mailed to it gives the page's verified session) or a typed name (shown as unverified). A modal
 * <dialog>: the page behind is inert and Escape cancels.
 */
export function IdentityDialog({
  transferId,
  access,
  initialName,
  onVisitor,
  onVerified,
  onCancel,
}: {
  transferId: string;
  access: () => DownloadAccess;
  initialName: string;
  onVisitor: (visitor: Visitor) => void;
  onVerified: (token: string, email: string) => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation('reviewer');
  const problemText = useProblemText();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const fieldId = useId();
  const errorId = useId();
  const [step, setStep] = useState<Step>('choose');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [name, setName] = useState(initialName);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const firstChoice = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  // each step starts at its field (or the first choice)
  useEffect(() => {
    if (step === 'choose') firstChoice.current?.focus();
    else field.current?.focus();
  }, [step]);

  const go = (next: Step) => {
    setError(null);
    setStep(next);
  };

  async function sendCode(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    const address = email.trim().toLowerCase();
    if (!EMAIL.test(address)) return setError(t('invalidEmail'));
    setBusy(true);
    setError(null);
    try {
      await sendReviewCode(access(), address, i18n.resolvedLanguage ?? i18n.language);
      setEmail(address);
      setCode('');
      setStep('code');
    } catch (err) {
      setError(err instanceof ApiError && err.status === 400 ? t('invalidEmail') : problemText(problemOf(err)));
    } finally {
      setBusy(false);
    }
  }

  async function verify(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const value = code.trim();
    if (!CODE.test(value)) return setError(t('invalidCode'));
    setBusy(true);
    setError(null);
    try {
      const session = await verifyReviewCode(access(), email, value);
      setBusy(false);
      onVerified(session.access, session.email);
    } catch (err) {
      setBusy(false);
      setError(
        err instanceof ApiError && (err.code === 'incorrect_code' || err.status === 400 || err.status === 401)
          ? t('wrongCode')
          : problemText(problemOf(err)),
      );
    }
  }

  function continueWithName(event: FormEvent) {
    event.preventDefault();
    const typed = name.trim();
    if (!typed || typed.length > VISITOR_NAME_MAX_CHARS)
      return setError(t('invalidName', { max: VISITOR_NAME_MAX_CHARS }));
    onVisitor(rememberVisitor(transferId, typed));
  }

  const errorLine = error && (
    <p id={errorId} className="download-notice download-notice-error" role="alert" data-testid="review-identity-error">
      {error}
    </p>
  );
  const described = error ? errorId : undefined;

  return (
    <dialog
      ref={dialog}
      className="rv-dialog"
      aria-labelledby={titleId}
      onClose={onCancel}
      onCancel={(event) => {
        event.preventDefault();
        dialog.current?.close();
      }}
      data-testid="review-identity-dialog"
    >
      <header className="rv-dialog-head">
        <h2 id={titleId}>{t('identityTitle')}</h2>
        <button
          type="button"
          className="rv-dialog-close"
          aria-label={t('close')}
          onClick={() => dialog.current?.close()}
        >
          <span aria-hidden="true">×</span>
        </button>
      </header>
      {step === 'choose' && (
        <div className="rv-choices">
          <p className="muted">{t('identityIntro')}</p>
          <button
            ref={firstChoice}
            type="button"
            className="rv-choice"
            onClick={() => go('email')}
            data-testid="review-identity-verify"
          >
            <strong>{t('verifyChoice')}</strong>
            <span className="muted">{t('verifyChoiceHint')}</span>
          </button>
          <button type="button" className="rv-choice" onClick={() => go('name')} data-testid="review-identity-name">
            <strong>{t('nameChoice')}</strong>
            <span className="muted">{t('nameChoiceHint')}</span>
          </button>
        </div>
      )}
      {step === 'email' && (
        <form className="rv-dialog-form" onSubmit={(event) => void sendCode(event)} noValidate>
          <label htmlFor={fieldId} className="rv-label">
            {t('emailLabel')}
          </label>
          <input
            ref={field}
            id={fieldId}
            className="rv-input"
            type="email"
            inputMode="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={described}
            data-testid="review-verify-email"
          />
          {errorLine}
          <FormActions
            busy={busy}
            back={{ label: t('back'), onClick: () => go('choose') }}
            submit={{ label: t('sendCode'), testId: 'review-verify-send' }}
          />
        </form>
      )}
      {step === 'code' && (
        <form className="rv-dialog-form" onSubmit={(event) => void verify(event)} noValidate>
          <p className="muted" role="status" data-testid="review-verify-sent">
            {t('codeSent', { email })}
          </p>
          <label htmlFor={fieldId} className="rv-label">
            {t('codeLabel')}
          </label>
          <input
            ref={field}
            id={fieldId}
            className="rv-input"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={5}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={described}
            data-testid="review-verify-code"
          />
          {errorLine}
          <FormActions
            busy={busy}
            back={{ label: t('resend'), onClick: () => void sendCode() }}
            submit={{ label: t('verify'), testId: 'review-verify-submit' }}
          />
        </form>
      )}
      {step === 'name' && (
        <form className="rv-dialog-form" onSubmit={continueWithName} noValidate>
          <label htmlFor={fieldId} className="rv-label">
            {t('nameLabel')}
          </label>
          <input
            ref={field}
            id={fieldId}
            className="rv-input"
            type="text"
            autoComplete="name"
            maxLength={VISITOR_NAME_MAX_CHARS}
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={described}
            data-testid="review-visitor-name"
          />
          <p className="muted rv-hint">{t('nameChoiceHint')}</p>
          {errorLine}
          <FormActions
            busy={false}
            back={{ label: t('back'), onClick: () => go('choose') }}
            submit={{ label: t('continue'), testId: 'review-visitor-continue' }}
          />
        </form>
      )}
    </dialog>
  );
}

/** A step's two buttons: go back (or resend), and submit with a spinner while busy. */
function FormActions({
  busy,
  back,
  submit,
}: {
  readonly busy: boolean;
  readonly back: { readonly label: string; readonly onClick: () => void };
  readonly submit: { readonly label: string; readonly testId: string };
}) {
  return (
    <div className="rv-form-actions">
      <button type="button" className="btn btn-ghost btn-sm" onClick={back.onClick} disabled={busy}>
        {back.label}
      </button>
      <button type="submit" className="btn btn-primary btn-sm" disabled={busy} data-testid={submit.testId}>
        {busy && <span className="download-spinner" aria-hidden="true" />}
        {submit.label}
      </button>
    </div>
  );
}
