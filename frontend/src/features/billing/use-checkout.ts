import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { BillingPeriod } from '@domain/billing-api';
import type { Role } from '@domain/plans';
import { paths } from '@/app/paths';
import { useSession } from '@/lib/session/session-provider';
import { createCheckout, fetchBillingConfig, fetchSimulatedSession } from './billing-api';
import { checkoutPrice, claimReload, createFailure, mountedState, type CheckoutState } from './checkout-state';

function browserSessionStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Prepares the checkout of a role and period for the signed-in user: the price, the provider's
 * session (a completed one goes straight to its return page), or why it cannot go on.
 */
export function useCheckout(role: Role, period: BillingPeriod, coupon: string | null | undefined) {
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

  return { state, unavailable, navigate };
}
