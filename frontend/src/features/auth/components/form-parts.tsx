import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import type { AuthErrorText } from '../auth-errors';
import type { LoginProblems } from '../field-problems';
import { AuthField } from './auth-field';
import { useAuthErrorText } from './error-text';

/** The submit button of the auth forms: its label turns into the busy one while a call is under way. */
export function SubmitButton({
  busy,
  disabled = busy,
  label,
  busyLabel,
  testId,
}: {
  busy: boolean;
  disabled?: boolean;
  label: string;
  busyLabel: string;
  testId: string;
}) {
  return (
    <button
      type="submit"
      className="btn btn-primary btn-block"
      disabled={disabled}
      aria-busy={busy}
      data-testid={testId}
    >
      {busy ? busyLabel : label}
    </button>
  );
}

/** A form's failed call, read out as an alert; empty while there is none. `children` follow the text. */
export function FailureAlert({
  failure,
  testId,
  children,
}: {
  failure: AuthErrorText | null;
  testId: string;
  children?: ReactNode;
}) {
  const errorText = useAuthErrorText();
  return (
    <p className="auth-alert" role="alert" data-testid={testId}>
      {failure ? errorText(failure) : ''}
      {children}
    </p>
  );
}

/** After 'this email is taken' (409): a Sign In link to Login with the address filled in; nothing otherwise. */
export function TakenEmailSignIn({
  failure,
  email,
  onNavigate,
  testId,
}: {
  failure: AuthErrorText | null;
  email: string;
  onNavigate?: () => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  if (failure === null || !('key' in failure) || failure.key !== 'emailTaken') return null;
  return (
    <>
      {' '}
      <Link to={paths.login({ user: email })} onClick={onNavigate} data-testid={testId}>
        {t('auth.register.signIn')}
      </Link>
    </>
  );
}

export const noCredentialProblems: LoginProblems = { email: null, password: null };

/** The state of an email + password form (login, the sign-up dialog). */
export function useCredentials(initialEmail: () => string = () => '') {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<LoginProblems>(noCredentialProblems);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  /** the input a failed check points at: the email's when it has a problem, else the password's */
  const firstInvalid = (found: LoginProblems) => (found.email ? emailInput.current : passwordInput.current);
  return { email, setEmail, password, setPassword, problems, setProblems, emailInput, passwordInput, firstInvalid };
}

export type Credentials = ReturnType<typeof useCredentials>;

const AUTOCOMPLETE = {
  login: { email: 'username', password: 'current-password' },
  signup: { email: 'email', password: 'new-password' },
} as const;

interface CredentialFieldsProps {
  /** input ids are `${id}-email` and `${id}-password` */
  readonly id: string;
  readonly kind: keyof typeof AUTOCOMPLETE;
  readonly fields: Credentials;
  /** test ids are `${testIdPrefix}-email` and `${testIdPrefix}-password` */
  readonly testIdPrefix: string;
  /** shown next to the password's label (Login's 'Forgot password?') */
  readonly passwordAside?: ReactNode;
}

/** The email and password fields of an auth form, with their problems (spec §8). */
export function CredentialFields({ id, kind, fields, testIdPrefix, passwordAside }: CredentialFieldsProps) {
  const { t } = useTranslation();
  const autoComplete = AUTOCOMPLETE[kind];
  const { problems } = fields;
  return (
    <>
      <AuthField
        id={`${id}-email`}
        label={t('auth.fields.email')}
        type="email"
        autoComplete={autoComplete.email}
        value={fields.email}
        onChange={fields.setEmail}
        problem={problems.email}
        inputRef={fields.emailInput}
        testId={`${testIdPrefix}-email`}
      />
      <AuthField
        id={`${id}-password`}
        label={t('auth.fields.password')}
        labelAside={passwordAside}
        type="password"
        autoComplete={autoComplete.password}
        value={fields.password}
        onChange={fields.setPassword}
        problem={problems.password}
        inputRef={fields.passwordInput}
        testId={`${testIdPrefix}-password`}
      />
    </>
  );
}
