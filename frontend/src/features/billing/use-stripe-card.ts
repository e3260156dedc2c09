import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { fetchBillingConfig } from './billing-api';

/**
 * Stripe.js and its card element, mounted in `host` once loaded (with this deployment's
 * publishable key) and destroyed on unmount; `failure` when Stripe.js cannot be had.
 */
export function useStripeCard() {
  const { t } = useTranslation('billing');
  const host = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<{ stripe: Stripe; card: StripeCardElement } | null>(null);
  const [ready, setReady] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      const config = await fetchBillingConfig();
      const { loadStripe } = await import('@stripe/stripe-js');
      const stripe = config.publishableKey ? await loadStripe(config.publishableKey) : null;
      if (!stripe) throw new Error('Stripe.js did not load');
      if (!live || !host.current) return;
      const card = stripe.elements().create('card');
      card.mount(host.current);
      stripeRef.current = { stripe, card };
      setReady(true);
    })().catch(() => live && setFailure(t('checkout.problems.provider_unavailable')));
    return () => {
      live = false;
      stripeRef.current?.card.destroy();
      stripeRef.current = null;
    };
  }, [t]);

  return { host, stripeRef, ready, failure };
}
