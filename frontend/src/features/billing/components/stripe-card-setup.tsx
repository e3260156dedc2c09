import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAction } from '@/lib/use-action';
import { useStripeCard } from '../use-stripe-card';
import { SetupActions, type SetupProps } from './setup-actions';

/** Stripe's card setup: its card element, then confirmCardSetup. */
export function StripeCardSetup({ clientSecret, onConfirmed, onCancel, errorWords }: SetupProps) {
  const { t } = useTranslation('billing');
  const { host, stripeRef, ready, failure } = useStripeCard();
  // Stripe.js words card errors itself (result.error.message); our API's refusals by code
  const action = useAction({
    errorText: (err) => (err instanceof Error && !('code' in err) ? err.message : errorWords(err)),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const mounted = stripeRef.current;
    if (!mounted) return;
    await action.run(async () => {
      const result = await mounted.stripe.confirmCardSetup(clientSecret, { payment_method: { card: mounted.card } });
      if (result.error) throw new Error(result.error.message ?? t('checkout.problems.generic'));
      const method = result.setupIntent.payment_method;
      const id = typeof method === 'string' ? method : method?.id;
      if (!id) throw new Error(t('checkout.problems.generic'));
      await onConfirmed(id);
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <div className="bl-field">
        <span className="bl-label">{t('card.legend')}</span>
        <div ref={host} className="bl-stripe-card" />
      </div>
      <p className="bl-alert" role="alert" data-testid="replace-card-error">
        {action.error ?? failure ?? ''}
      </p>
      {ready && <SetupActions busy={action.busy} onCancel={onCancel} />}
    </form>
  );
}
