import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccessSessionResponse } from '@domain/recipient-access';
import type { AccessCodeRequest, AccessVerifyRequest } from '@domain/recipient-access-api';
import { DOWNLOAD_REQUEST_TIMEOUT_MS } from '@domain/ui-timings';
import { i18n } from '@/i18n/i18n';
import { errorTextOf } from '@/i18n/error-keys';
import { ApiError, apiFetch } from '@/lib/api';
import type { DownloadFailure } from '@/features/downloads/download-failure';
import { AlertIcon, LockIcon } from '@/features/downloads/components/download-icons';
import { InlineField } from '@/features/downloads/components/inline-field';
import { StatePanel } from '@/features/downloads/components/state-panel';
import { HomeSupportActions } from '@/components/home-support-actions';

/** The panel renders translated on its first paint: the page waits for this with the chunk. */
export const ready = i18n.loadNamespaces('access');

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
const CODE = /^[A-Za-z0-9]{5}$/u;

type Ended = Extract<DownloadFailure, { kind: 'accessEnded' }>['reason'];
const ENDED: Record<string, Ended> = {
  recipient_removed: 'removed',
  recipient_revoked: 'revoked',
  recipient_expired: 'expired',
};

/**
 * 401 verification_required (decision 0076): the recipient's address, then the 5-digit code
 * mailed to it; a right code gives the page its session and the files show. A personal link
 * fills in its own address.
 */
export function VerifyPanel({
  id,
  recipient,
  password,
  initialEmail,
  onVerified,
  onEnded,
}: {
  id: string;
  recipient: string | undefined;
  password: string | undefined;
  initialEmail: string | undefined;
  /** null once the files show; otherwise what went wrong */
  onVerified: (session: AccessSessionResponse) => Promise<DownloadFailure | null>;
  onEnded: (reason: Ended) => void;
}) {
  const { t } = useTranslation('access');
  const emailInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [email, setEmail] = useState(initialEmail ?? '');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shaking, setShaking] = useState(false);
  const gate = { id, ...(recipient ? { recipient } : {}), ...(password ? { password } : {}) };

  function failed(err: unknown) {
    setBusy(false);
    if (err instanceof ApiError) {
      const ended = ENDED[err.code];
      if (err.status === 410 && ended) return onEnded(ended);
      if (err.code === 'address_not_allowed') return setError(t('notAllowed'));
      if (err.code === 'incorrect_code') return setError(t('wrongCode'));
      if (err.status === 429) {
        const text = errorTextOf(err);
        return setError(i18n.t(text.key, text.params));
      }
    }
    setError(t('failed'));
  }

  async function sendCode(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    const address = email.trim().toLowerCase();
    if (!EMAIL.test(address)) {
      setError(t('invalidEmail'));
      setShaking(true);
      emailInput.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body: AccessCodeRequest = { ...gate, email: address, lang: i18n.language };
      await apiFetch<unknown>('/getDownload/access/code', { body, timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS });
      setEmail(address);
      setCode('');
      setBusy(false);
      setStep('code');
    } catch (err) {
      failed(err);
    }
  }

  async function verify(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const value = code.trim();
    if (!CODE.test(value)) {
      setError(t('invalidCode'));
      setShaking(true);
      codeInput.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body: AccessVerifyRequest = { ...gate, email, code: value };
      const session = await apiFetch<AccessSessionResponse>('/getDownload/access/verify', {
        body,
        timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS,
      });
      const failure = await onVerified(session);
      if (failure !== null) failed(undefined);
    } catch (err) {
      failed(err);
    }
  }

  return (
    <StatePanel icon={LockIcon} title={t('title')} titleTestId="download-verify">
      {step === 'email' ? (
        <form className="download-form" onSubmit={(event) => void sendCode(event)} noValidate>
          <p className="muted">{t('intro')}</p>
          <InlineField
            label={t('emailLabel')}
            inputRef={emailInput}
            autoFocus
            type="email"
            inputMode="email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            shaking={shaking}
            onShakeEnd={() => setShaking(false)}
            error={error}
            busy={busy}
            submitText={t('sendCode')}
            inputTestId="download-verify-email"
            submitTestId="download-verify-send"
            errorTestId="download-verify-error"
          />
        </form>
      ) : (
        <form className="download-form" onSubmit={(event) => void verify(event)} noValidate>
          <p className="muted" role="status" data-testid="download-verify-sent">
            {t('codeSent', { email })}
          </p>
          <InlineField
            label={t('codeLabel')}
            inputRef={codeInput}
            autoFocus
            type="text"
            inputMode="numeric"
            maxLength={5}
            autoComplete="one-time-code"
            value={code}
            onChange={setCode}
            shaking={shaking}
            onShakeEnd={() => setShaking(false)}
            error={error}
            busy={busy}
            submitText={t('verify')}
            inputTestId="download-verify-code"
            submitTestId="download-verify-submit"
            errorTestId="download-verify-error"
          />
          <div className="download-verify-links">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => void sendCode()} disabled={busy}>
              {t('resend')}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={busy}
              onClick={() => {
                setError(null);
                setStep('email');
              }}
            >
              {t('otherAddress')}
            </button>
          </div>
        </form>
      )}
    </StatePanel>
  );
}

/** 410 recipient_removed / revoked / expired: the sender ended this address's access. */
export function AccessEndedPanel({ reason }: { reason: Ended }) {
  const { t } = useTranslation('access');
  return (
    <StatePanel icon={AlertIcon} warn title={t(reason)} titleTestId="download-access-ended">
      <HomeSupportActions />
    </StatePanel>
  );
}
