import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkRegistrationCode } from '../api/accounts-api';
import { useAuthAction } from '../hooks/use-auth-action';
import { emptyCode, type CodeDigits } from '../code-boxes';
import { useShake } from '../hooks/use-shake';
import { CodeBoxesInput } from './code-boxes-input';
import { useAuthErrorText } from './error-text';
import { ResendCode, useRegistrationResend } from './resend-code';

interface CodeStepProps {
  readonly email: string;
  onVerified(registrationToken: string): void;
  onOtherEmail(): void;
}

/**
 * Step 2 (spec §4, §5, §8): five boxes that submit themselves when full; a wrong code (403)
 * says so, shakes the boxes and starts again; Resend spins and locks for 2 s.
 */
export function CodeStep({ email, onVerified, onOtherEmail }: CodeStepProps) {
  const { t } = useTranslation();
  const id = useId();
  const shake = useShake();
  const errorText = useAuthErrorText();
  const [digits, setDigits] = useState<CodeDigits>(emptyCode);
  const { busy: checking, failure, setFailure, run } = useAuthAction();
  const boxes = useRef<HTMLDivElement>(null);

  const lock = useRegistrationResend(email, setFailure, (start) => {
    // Proven meanwhile (another tab): nothing left to type.
    if (start.verified && start.registrationToken) onVerified(start.registrationToken);
  });

  const check = async (code: string) => {
    if (checking) return;
    setFailure(null);
    await run(
      async () => {
        const proof = await checkRegistrationCode(email, code);
        onVerified(proof.registrationToken);
      },
      { 403: 'incorrectCode' },
      () => {
        setDigits(emptyCode());
        shake(boxes.current, boxes.current?.querySelector('input'));
      },
    );
  };

  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="auth-subtitle">
        {t('auth.register.codeHeading')}
      </h2>
      <p className="auth-lead">{t('auth.register.codeLead', { email })}</p>
      <p id={`${id}-label`} className="auth-label">
        {t('auth.register.codeLabel')}
      </p>
      <div ref={boxes}>
        <CodeBoxesInput
          digits={digits}
          onChange={(next) => {
            setDigits(next);
            setFailure(null);
          }}
          onComplete={check}
          disabled={checking}
          invalid={failure !== null}
          labelledBy={`${id}-label`}
          describedBy={`${id}-problem`}
          autoFocus
        />
      </div>
      <p id={`${id}-problem`} className="auth-field-error" role="alert" data-testid="register-code-error">
        {failure ? errorText(failure) : ''}
      </p>
      <ResendCode working={checking ? t('auth.register.verifying') : null} lock={lock} testId="register-resend" />
      <p className="auth-footnote">
        <button type="button" className="auth-link-button" onClick={onOtherEmail} data-testid="register-other-email">
          {t('auth.register.otherEmail')}
        </button>
      </p>
    </section>
  );
}
