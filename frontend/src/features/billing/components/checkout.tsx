import type { BillingPeriod } from '@domain/billing-api';
import type { Role } from '@domain/plans';
import { PageLoading } from '@/components/page-loading';
import { useCheckout } from '../use-checkout';
import { CheckoutFailed } from './checkout-failed';
import { SimulatedCheckout } from './simulated-checkout';
import { StripeCheckout } from './stripe-checkout';
import '../billing.css';

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
  const { state, unavailable, navigate } = useCheckout(role, period, coupon);

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
