import { useCallback, useState } from 'react';
import { loadRegistration, saveRegistration, type Registration } from '@/features/auth/register-steps';

function browserSessionStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** The registration so far (the email, then its proof), kept in the tab's session storage across the steps. */
export function useRegistration() {
  const [registration, setRegistrationState] = useState<Registration | null>(() =>
    loadRegistration(browserSessionStorage()),
  );

  const setRegistration = useCallback((next: Registration | null) => {
    saveRegistration(browserSessionStorage(), next);
    setRegistrationState(next);
  }, []);

  // Storage only: clearing the state too would let the step guard send the page back to step 1.
  const forgetStored = useCallback(() => saveRegistration(browserSessionStorage(), null), []);

  return { registration, setRegistration, forgetStored };
}
