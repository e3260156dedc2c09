import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { useSession } from '@/lib/session/session-provider';
import { checkRegistrationCode, signup, startRegistration } from '../api/accounts-api';
import { emptyCode, type CodeDigits } from '../code-boxes';
import { emailProblem, newPasswordProblem, normalisedEmail } from '../field-problems';
import { currentBrowser, nameFromEmail, signupBody } from '../signup-payload';
import { noCredentialProblems, useCredentials } from '../components/form-parts';
import { useRegistrationResend } from '../components/resend-code';
import { useAuthAction } from './use-auth-action';
import { useShake } from './use-shake';

/**
 * The sign-up dialog's state: step 1's credentials, step 2's code, the account's creation
 * (straight after step 1 when the email was proven before), and a fresh start on each closing.
 */
export function useSignupModal(open: boolean, onClose: () => void) {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const navigate = useNavigate();
  const session = useSession();
  const shake = useShake();
  const dialog = useRef<HTMLDialogElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const [step, setStep] = useState<1 | 2>(1);
  const credentials = useCredentials();
  const { email, password, setPassword, setProblems } = credentials;
  const [digits, setDigits] = useState<CodeDigits>(emptyCode);
  const { busy, failure, setFailure, run } = useAuthAction();

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
    await run(
      async () => {
        const start = await startRegistration(address, lang);
        if (start.verified && start.registrationToken) await createAccount(address, start.registrationToken);
        else setStep(2);
      },
      { 409: 'emailTaken' },
      () => shake(body.current, credentials.emailInput.current),
    );
  };

  const checkCode = async (code: string) => {
    if (busy) return;
    const address = normalisedEmail(email);
    setFailure(null);
    await run(
      async () => {
        const proof = await checkRegistrationCode(address, code);
        await createAccount(address, proof.registrationToken);
      },
      { 403: 'incorrectCodeModal', 409: 'emailTaken' },
      () => {
        setDigits(emptyCode());
        shake(body.current, body.current?.querySelector<HTMLInputElement>('[data-testid="code-box-0"]'));
      },
    );
  };

  const lock = useRegistrationResend(normalisedEmail(email), setFailure);

  return {
    dialog,
    body,
    step,
    setStep,
    credentials,
    digits,
    setDigits,
    busy,
    failure,
    setFailure,
    submitCredentials,
    checkCode,
    lock,
  };
}
