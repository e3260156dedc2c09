import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '@/components/icons';
import { normalisedEmail } from '../field-problems';
import { useSignupModal } from '../hooks/use-signup-modal';
import { CodeBoxesInput } from './code-boxes-input';
import { CredentialFields, FailureAlert, SubmitButton, TakenEmailSignIn } from './form-parts';
import { ResendCode } from './resend-code';
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
  const { t } = useTranslation();
  const id = useId();
  const m = useSignupModal(open, onClose);
  const { credentials, failure, busy } = m;
  const email = normalisedEmail(credentials.email);

  const failureLine: ReactNode = (
    <FailureAlert failure={failure} testId="signup-modal-error">
      <TakenEmailSignIn failure={failure} email={email} onNavigate={onClose} />
    </FailureAlert>
  );

  return (
    <dialog
      ref={m.dialog}
      className="auth-dialog"
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      data-testid="signup-modal"
    >
      <div className="auth-dialog-body" ref={m.body}>
        <button type="button" className="auth-dialog-close" aria-label={t('auth.modal.close')} onClick={onClose}>
          <CloseIcon />
        </button>
        {m.step === 1 ? (
          <form onSubmit={m.submitCredentials} noValidate>
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
            <p className="auth-lead">{t('auth.register.codeLead', { email })}</p>
            <p id={`${id}-code-label`} className="auth-label">
              {t('auth.register.codeLabel')}
            </p>
            <CodeBoxesInput
              digits={m.digits}
              onChange={(next) => {
                m.setDigits(next);
                m.setFailure(null);
              }}
              onComplete={m.checkCode}
              disabled={busy}
              invalid={failure !== null}
              labelledBy={`${id}-code-label`}
              describedBy={`${id}-code-problem`}
              autoFocus
            />
            <div id={`${id}-code-problem`}>{failureLine}</div>
            <ResendCode working={busy ? t('auth.modal.creating') : null} lock={m.lock} testId="signup-modal-resend" />
            <p className="auth-footnote">
              <button
                type="button"
                className="auth-link-button"
                onClick={() => m.setStep(1)}
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
