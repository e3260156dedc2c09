import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RESEND_LOCK_MS } from '@domain/ui-timings';
import { ApiError } from '@/lib/api';
import { errorTextOf } from '@/i18n/error-keys';
import { useShake } from '@/lib/use-shake';
import { checkSenderCode, requestSenderCode } from '../send-api';

export const GUEST_CODE_LENGTH = 5;

/** What the code box keeps of typed or pasted text: digits only, at most 5. */
export function sanitizeGuestCode(text: string): string {
  return text.replace(/\D/gu, '').slice(0, GUEST_CODE_LENGTH);
}

/**
 * The guest's code: mailed once on entering the step, checked on Verify (a wrong one shakes the
 * box), mailed again on Resend, which stays locked for 2 s.
 */
export function useVerifyCode(email: string, lang: string, onVerified: (senderToken: string) => void) {
  const { t } = useTranslation();
  // by the answer's code, never its English message
  const apiText = (err: ApiError) => {
    const text = errorTextOf(err);
    return t(text.key, text.params);
  };
  const shake = useShake();
  const [code, setCode] = useState('');
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const [resent, setResent] = useState(false);
  const box = useRef<HTMLInputElement>(null);
  const sent = useRef(false);
  const live = useRef(true);

  const sendCode = async () => {
    try {
      await requestSenderCode(email, lang);
      return true;
    } catch (err) {
      if (live.current)
        setError(err instanceof ApiError && !err.isNetwork ? apiText(err) : t('send.toast.connectionTrouble'));
      return false;
    }
  };

  useEffect(() => {
    live.current = true;
    // Once per visit to the step, also under StrictMode's double effects.
    if (!sent.current) {
      sent.current = true;
      void sendCode();
    }
    box.current?.focus();
    return () => {
      live.current = false;
    };
  }, []);

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== GUEST_CODE_LENGTH || checking) return;
    setChecking(true);
    setError(null);
    try {
      const { senderToken } = await checkSenderCode(email, code);
      if (live.current) onVerified(senderToken);
    } catch (err) {
      if (!live.current) return;
      setChecking(false);
      if (err instanceof ApiError && err.status === 403) setError(t('send.verify.incorrect'));
      else setError(err instanceof ApiError && !err.isNetwork ? apiText(err) : t('send.toast.connectionTrouble'));
      shake(box.current);
    }
  };

  const resend = async () => {
    if (resending) return;
    setResending(true);
    setResent(false);
    setError(null);
    const started = Date.now();
    const ok = await sendCode();
    // The spinner turns and the button stays locked for 2 s even when the answer is quicker.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, RESEND_LOCK_MS - (Date.now() - started))));
    if (!live.current) return;
    setResending(false);
    setResent(ok);
  };

  const type = (text: string) => {
    setCode(sanitizeGuestCode(text));
    setError(null);
  };

  return { code, type, checking, error, resending, resent, box, verify, resend };
}
