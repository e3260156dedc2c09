import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { CloseIcon } from '@/components/icons';
import { useSession } from '@/lib/session/session-provider';
import { checkRegistrationCode, signup, startRegistration } from '../api/accounts-api';
import { authErrorText, type AuthErrorText } from '../auth-errors';
import { emptyCode, type CodeDigits } from '../code-boxes';
import { emailProblem, newPasswordProblem, normalisedEmail } from '../field-problems';
import { useShake } from '../hooks/use-shake';
import { currentBrowser, nameFromEmail, signupBody } from '../signup-payload';
import { CodeBoxesInput } from './code-boxes-input';
import {
  CredentialFields,
  FailureAlert,
  noCredentialProblems,
  SubmitButton,
  TakenEmailSignIn,
  useCredentials,
} from './form-parts';
import { ResendCode, useRegistrationResend } from './resend-code';
import '../auth.css';

interface SignupModalProps {
  readonly open: boolean;
  onClose(): void;
}

/**
 * Free sign-up in a dialog (spec §2, §4, §5): step 1 email and password (at least 6
 * characters), step 2 the mailed code (auto-submits, Resend locked 2 s, wrong code:
 * 'Incorrect, check your email and try again.'). The account is created on the free plan and
 * the visitor lands on the dashboard.
 */
export function SignupModal({ open, onClose }: SignupModalProps) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const navigate = useNavigate();
  const session = useSession();
  const shake = useShake();
  const dialog = useRef<HTMLDialogElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const [step, setStep] = useState<1 | 2>(1);
  const credentials = useCredentials();
  const { email, password, setPassword, setProblems } = credentials;
  const [digits, setDigits] = useState<CodeDigits>(emptyCode);
  const [failure, setFailure] = useState<AuthErrorText | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  // Closing starts over next time, without the password in memory.
  useEffect(() => {
    if (open) return;
    setStep(1);
    setPassword('');
    setDigits(emptyCode());
    setProblems(noCredentialProblems);
    setFailure(null);
    setBusy(false);
  }, [open]);

  const createAccount = async (address: string, registrationToken: string) => {
    const auth = await signup(
      signupBody(
        { registrationToken, email: address, fullName: nameFromEmail(address), password, role: 'free', lang },
        currentBrowser(),
      ),
    );
    session.completeSignup(auth);
    onClose();
    navigate(paths.dash());
  };

  const submitCredentials = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = { email: emailProblem(email), password: newPasswordProblem(password) };
    setProblems(found);
    setFailure(null);
    if (found.email || found.password) {
      shake(body.current, credentials.firstInvalid(found));
      return;
    }
    const address = normalisedEmail(email);
    setBusy(true);
    try {
      const start = await startRegistration(address, lang);
      if (start.verified && start.registrationToken) {
        await createAccount(address, start.registrationToken);
        return;
      }
      setBusy(false);
      setStep(2);
    } catch (err) {
      setBusy(false);
      setFailure(authErrorText(err, { 409: 'emailTaken' }));
      shake(body.current, credentials.emailInput.current);
    }
  };

  const checkCode = async (code: string) => {
    if (busy) return;
    const address = normalisedEmail(email);
    setBusy(true);
    setFailure(null);
    try {
      const proof = await checkRegistrationCode(address, code);
      await createAccount(address, proof.registrationToken);
    } catch (err) {
      setBusy(false);
      setFailure(authErrorText(err, { 403: 'incorrectCodeModal', 409: 'emailTaken' }));
      setDigits(emptyCode());
      shake(body.current, body.current?.querySelector<HTMLInputElement>('[data-testid="code-box-0"]'));
    }
  };

  const lock = useRegistrationResend(normalisedEmail(email), setFailure);

  const failureLine: ReactNode = (
    <FailureAlert failure={failure} testId="signup-modal-error">
      <TakenEmailSignIn failure={failure} email={normalisedEmail(email)} onNavigate={onClose} />
    </FailureAlert>
  );

  return (
    <dialog
      ref={dialog}
      className="auth-dialog"
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      data-testid="signup-modal"
    >
      <div className="auth-dialog-body" ref={body}>
        <button type="button" className="auth-dialog-close" aria-label={t('auth.modal.close')} onClick={onClose}>
          <CloseIcon />
        </button>
        {step === 1 ? (
          <form onSubmit={submitCredentials} noValidate>
            <h2 id={`${id}-title`} className="auth-title">
              {t('auth.modal.title')}
            </h2>
            <p className="auth-lead">{t('auth.modal.lead')}</p>
            <CredentialFields id={id} kind="signup" fields={credentials} testIdPrefix="signup-modal" />
            {failureLine}
            <SubmitButton
              busy={busy}
              label={t('auth.modal.continue')}
              busyLabel={t('auth.register.checking')}
              testId="signup-modal-continue"
            />
          </form>
        ) : (
          <div>
            <h2 id={`${id}-title`} className="auth-title">
              {t('auth.register.codeHeading')}
            </h2>
            <p className="auth-lead">{t('auth.register.codeLead', { email: normalisedEmail(email) })}</p>
            <p id={`${id}-code-label`} className="auth-label">
              {t('auth.register.codeLabel')}
            </p>
            <CodeBoxesInput
              digits={digits}
              onChange={(next) => {
                setDigits(next);
                setFailure(null);
              }}
              onComplete={checkCode}
              disabled={busy}
              invalid={failure !== null}
              labelledBy={`${id}-code-label`}
              describedBy={`${id}-code-problem`}
              autoFocus
            />
            <div id={`${id}-code-problem`}>{failureLine}</div>
            <ResendCode working={busy ? t('auth.modal.creating') : null} lock={lock} testId="signup-modal-resend" />
            <p className="auth-footnote">
              <button
                type="button"
                className="auth-link-button"
                onClick={() => setStep(1)}
                data-testid="signup-modal-back"
              >
                {t('auth.modal.back')}
              </button>
            </p>
          </div>
        )}
      </div>
    </dialog>
  );
}
