import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '@/components/page-loading';

/**
 * Stripe's embedded Checkout (spec §1 embedded card payment): Stripe.js loads only here, when
 * the provider is stripe, from js.stripe.com (frontend/csp.ts allows it), and mounts the Checkout
 * Session the server created. Stripe sends the browser to the session's return URL when paid.
 */
export function StripeCheckout({
  publishableKey,
  clientSecret,
  onUnavailable,
}: {
  readonly publishableKey: string;
  readonly clientSecret: string;
  onUnavailable(): void;
}) {
  const { t } = useTranslation('billing');
  const host = useRef<HTMLDivElement>(null);
  const [mounted, setMounted] = useState(false);

  useEffect(() => {
    let live = true;
    let destroy: (() => void) | null = null;
    (async () => {
      const { loadStripe } = await import('@stripe/stripe-js');
      const stripe = await loadStripe(publishableKey);
      if (!stripe) throw new Error('Stripe.js did not load');
      const checkout = await stripe.createEmbeddedCheckoutPage({
        fetchClientSecret: () => Promise.resolve(clientSecret),
      });
      if (!live || !host.current) {
        checkout.destroy();
        return;
      }
      checkout.mount(host.current);
      destroy = () => checkout.destroy();
      setMounted(true);
    })().catch(() => {
      if (live) onUnavailable();
    });
    return () => {
      live = false;
      destroy?.();
    };
  }, [publishableKey, clientSecret, onUnavailable]);

  return (
    <section className="bl-checkout bl-stripe" aria-label={t('checkout.stripeLabel')} data-testid="stripe-checkout">
      {!mounted && <PageLoading />}
      <div ref={host} className="bl-stripe-host" />
    </section>
  );
}
