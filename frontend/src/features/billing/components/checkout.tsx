import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { BillingPeriod } from '@domain/billing-api';
import type { Role } from '@domain/plans';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { company } from '@/config/company';
import { useSession } from '@/lib/session/session-provider';
import { createCheckout, fetchBillingConfig, fetchSimulatedSession } from '../billing-api';
import {
  checkoutPrice,
  claimReload,
  createFailure,
  mountedState,
  type CheckoutProblem,
  type CheckoutState,
} from '../checkout-state';
import { SimulatedCheckout } from './simulated-checkout';
import { StripeCheckout } from './stripe-checkout';
import '../billing.css';

function browserSessionStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The checkout of a paid plan (register step 3 and /dash/account tab 1): GET /billing/config,
 * POST /stripe/createSubscription with the spec §3 checkout request (price of the role and
 * period, the user's email, id and name, the referrer, a coupon from `?coupon=`), then the
 * provider's checkout: Stripe's embedded one or the simulator's card form.
 */
export function Checkout({
  role,
  period,
  coupon,
}: {
  readonly role: Role;
  readonly period: BillingPeriod;
  readonly coupon?: string | null;
}) {
  const { user } = useSession();
  const navigate = useNavigate();
  const [state, setState] = useState<CheckoutState>({ phase: 'loading' });
  const userId = user?._id;
  const email = user?.email;
  const fullName = user?.fullName;

  useEffect(() => {
    if (!userId || !email) return undefined;
    let live = true;
    setState({ phase: 'loading' });
    (async () => {
      const config = await fetchBillingConfig();
      const price = checkoutPrice(config.prices, role, period);
      if (!price) return { phase: 'failed', problem: 'not_on_sale' } as const;
      let created: Awaited<ReturnType<typeof createCheckout>>;
      try {
        created = await createCheckout({
          price_id: price.priceId,
          customer_email: email,
          client_reference_id: userId,
          mongo_id: userId,
          ...(fullName ? { fullName: fullName.slice(0, 255), name: fullName.slice(0, 255) } : {}),
          ...(document.referrer ? { referrer: document.referrer.slice(0, 2048) } : {}),
          ...(coupon ? { coupon_id: coupon.slice(0, 255) } : {}),
        });
      } catch (err) {
        const failure = createFailure(err);
        if (failure.action === 'reload') {
          // spec §8: a checkout invalid-request answer reloads the page (once, see claimReload)
          if (claimReload(browserSessionStorage(), Date.now())) {
            window.location.reload();
            return null;
          }
          return { phase: 'failed', problem: 'generic' } as const;
        }
        return { phase: 'failed', problem: failure.problem } as const;
      }
      const session = created.type === 'simulated' ? await fetchSimulatedSession(created.clientSecret) : null;
      if (session?.status === 'complete') {
        navigate(session.returnUrl.startsWith('/') ? session.returnUrl : paths.thankyou2(), { replace: true });
        return null;
      }
      return mountedState(created.type, config.publishableKey, price, created.clientSecret, session);
    })()
      .then((next) => {
        if (live && next) setState(next);
      })
      .catch(() => {
        if (live) setState({ phase: 'failed', problem: 'generic' });
      });
    return () => {
      live = false;
    };
  }, [userId, email, fullName, role, period, coupon, navigate]);

  const unavailable = useCallback(() => setState({ phase: 'failed', problem: 'provider_unavailable' }), []);

  switch (state.phase) {
    case 'loading':
      return <PageLoading />;
    case 'stripe':
      return (
        <StripeCheckout
          publishableKey={state.publishableKey}
          clientSecret={state.clientSecret}
          onUnavailable={unavailable}
        />
      );
    case 'simulated':
      return (
        <SimulatedCheckout
          session={state.session}
          price={state.price}
          clientSecret={state.clientSecret}
          onComplete={(path) => navigate(path)}
        />
      );
    case 'failed':
      return <CheckoutFailed problem={state.problem} />;
  }
}

function CheckoutFailed({ problem }: { readonly problem: CheckoutProblem }) {
  const { t } = useTranslation('billing');
  return (
    <section
      className="bl-checkout bl-checkout-failed"
      role="alert"
      data-testid="checkout-failed"
      data-problem={problem}
    >
      <p>{t(`checkout.problems.${problem}`)}</p>
      {problem === 'already_subscribed' && (
        <Link to={paths.accountBilling()} className="btn btn-primary btn-sm">
          {t('checkout.toBilling')}
        </Link>
      )}
      {problem === 'sign_in_again' && (
        <Link
          to={paths.login({ redirect: window.location.pathname + window.location.search })}
          className="btn btn-primary btn-sm"
        >
          {t('checkout.signIn')}
        </Link>
      )}
      {(problem === 'generic' || problem === 'expired' || problem === 'provider_unavailable') && (
        <button type="button" className="btn btn-primary btn-sm" onClick={() => window.location.reload()}>
          {t('checkout.tryAgain')}
        </button>
      )}
      <p className="muted">
        {t('checkout.help')} <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>
      </p>
    </section>
  );
}
