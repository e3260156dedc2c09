import { useEffect, useRef, useState } from 'react';
import { RESEND_LOCK_MS } from '@domain/ui-timings';

/**
 * Resend code (spec §4, §9): the button spins and stays locked for 2 s even when the answer
 * comes sooner, so a double click cannot mail two codes.
 */
export function useResendLock(send: () => Promise<boolean>): {
  locked: boolean;
  resent: boolean;
  resend: () => Promise<void>;
} {
  const [locked, setLocked] = useState(false);
  const [resent, setResent] = useState(false);
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const resend = async () => {
    if (locked) return;
    setLocked(true);
    setResent(false);
    const started = Date.now();
    const ok = await send();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, RESEND_LOCK_MS - (Date.now() - started))));
    if (!live.current) return;
    setLocked(false);
    setResent(ok);
  };

  return { locked, resent, resend };
}
