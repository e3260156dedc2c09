import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { StripeDataResponse } from '@domain/billing-api';
import { paths } from '@/app/paths';
import { CheckIcon } from '@/components/icons';
import { usePlanName } from '@/lib/use-plan-name';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchStripeData } from '../billing-api';
import { formatDay, trialDaysLeft } from '../billing-format';
import { pollConfirmation, type Confirmation } from '../trial-confirmation';
import '../billing.css';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * /thankyou2 (spec §2): thanks for starting the trial. Waits for the provider's confirmation
 * (the webhook sets the subscription), then offers the dashboard; after about 20 seconds
 * without it, says the payment is still being confirmed.
 */
export function ThankyouTrialPage() {
  const { t } = useTranslation('pages');
  const { t: tBilling, i18n } = useTranslation('billing');
  const lng = i18n.resolvedLanguage ?? 'en';
  const planName = usePlanName();
  const { status, user } = useSession();
  const [state, setState] = useState<Confirmation>('waiting');
  const [data, setData] = useState<StripeDataResponse | null>(null);
  const signedIn = status === 'authenticated' && user !== null;
  usePageTitle(t('thankyou.trialTitle'));

  useEffect(() => {
    // a registration that reached its checkout is over (register-steps.ts REGISTRATION_STORAGE_KEY)
    try {
      sessionStorage.removeItem('sb_registration');
    } catch {
      // storage blocked: nothing was kept
    }
  }, []);

  useEffect(() => {
    if (!signedIn) return undefined;
    const abort = new AbortController();
    void pollConfirmation(
      { fetch: (signal) => fetchStripeData(signal), now: () => Date.now(), sleep },
      abort.signal,
      (next, answer) => {
        setState(next);
        setData(answer);
      },
    );
    return () => abort.abort();
  }, [signedIn]);

  const view = data?.view ?? null;
  const days = view ? trialDaysLeft(view, Date.now()) : null;

  return (
    <section className="container narrow center-block" data-testid="thankyou-trial" data-state={state}>
      <span className="success-mark" aria-hidden="true">
        <CheckIcon width={36} height={36} />
      </span>
      <h1>{t('thankyou.trialTitle')}</h1>
      <p className="lead">{t('thankyou.trialBody')}</p>
      <div role="status" aria-live="polite" className="bl-confirmation">
        {signedIn && state === 'waiting' && (
          <p className="muted" data-testid="thankyou-waiting">
            <span className="spinner spinner-inline" aria-hidden="true" /> {tBilling('thanks.confirming')}
          </p>
        )}
        {state === 'confirmed' && view && (
          <p data-testid="thankyou-confirmed">
            {days !== null && view.trialEnd !== null
              ? tBilling('thanks.confirmedTrial', {
                  plan: planName(view.role),
                  count: days,
                  date: formatDay(view.trialEnd, lng),
                })
              : tBilling('thanks.confirmed', { plan: planName(view.role) })}
          </p>
        )}
        {state === 'still_confirming' && (
          <p data-testid="thankyou-still-confirming">{tBilling('thanks.stillConfirming')}</p>
        )}
      </div>
      <div className="center-actions">
        {signedIn ? (
          state !== 'waiting' && (
            <Link to={paths.dash()} className="btn btn-primary btn-lg" data-testid="thankyou-dashboard">
              {tBilling('thanks.toDashboard')}
            </Link>
          )
        ) : (
          <Link to={paths.login({ redirect: paths.dash() })} className="btn btn-primary btn-lg">
            {tBilling('thanks.signIn')}
          </Link>
        )}
      </div>
    </section>
  );
}
