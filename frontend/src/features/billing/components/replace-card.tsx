import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { StripeCardElement, Stripe } from '@stripe/stripe-js';
import type { CardView, SetupIntentResponse } from '@domain/billing-api';
import { errorTextOf } from '@/i18n/error-keys';
import { addCard, confirmSimulatedSetup, createSetupIntent, fetchBillingConfig } from '../billing-api';
import { billingErrorKey } from '../billing-errors';
import { cardErrorMessage } from '../checkout-state';
import { useSimulatedCardForm } from '../use-simulated-card-form';
import { CardFields, TestCardsHint } from './card-fields';

/**
 * Replace the card (spec §7 POST /addCard via a SetupIntent): POST /billing/setup-intent, then
 * the provider confirms the new card (Stripe: its card element and confirmCardSetup; the
 * simulator: our card form and POST /payments/simulated/setup), then POST /addCard makes it the
 * default. Card errors are shown as the provider words them.
 */
export function ReplaceCard({ onReplaced, onCancel }: { onReplaced(card: CardView): void; onCancel(): void }) {
  const { t } = useTranslation('billing');
  const { t: tApp } = useTranslation();
  const [intent, setIntent] = useState<SetupIntentResponse | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const errorWords = (err: unknown) => {
    const own = billingErrorKey(err);
    return cardErrorMessage(err) ?? (own ? t(own) : (tApp as (key: string) => string)(errorTextOf(err).key));
  };

  useEffect(() => {
    let live = true;
    createSetupIntent()
      .then((answer) => live && setIntent(answer))
      .catch((err: unknown) => live && setFailure(errorWords(err)));
    return () => {
      live = false;
    };
    // once per opening: errorWords reads the language when the answer comes
  }, []);

  const finish = async (paymentMethodId: string) => {
    const { card } = await addCard({ paymentMethodId });
    onReplaced(card);
  };

  return (
    <div className="bl-replace-card" data-testid="replace-card">
      <h3>{t('card.replaceTitle')}</h3>
      {!intent && !failure && <p className="muted">{t('card.preparing')}</p>}
      {!intent && failure && (
        <p className="bl-alert" role="alert">
          {failure}
        </p>
      )}
      {intent?.type === 'simulated' && (
        <SimulatedCardSetup
          clientSecret={intent.clientSecret}
          onConfirmed={finish}
          onCancel={onCancel}
          errorWords={errorWords}
        />
      )}
      {intent?.type === 'stripe' && (
        <StripeCardSetup
          clientSecret={intent.clientSecret}
          onConfirmed={finish}
          onCancel={onCancel}
          errorWords={errorWords}
        />
      )}
      {!intent && (
        <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
          {t('dialog.back')}
        </button>
      )}
    </div>
  );
}

interface SetupProps {
  readonly clientSecret: string;
  onConfirmed(paymentMethodId: string): Promise<void>;
  onCancel(): void;
  errorWords(err: unknown): string;
}

function SetupActions({ busy, onCancel }: { readonly busy: boolean; onCancel(): void }) {
  const { t } = useTranslation('billing');
  return (
    <div className="bl-actions">
      <button
        type="submit"
        className="btn btn-primary"
        disabled={busy}
        aria-busy={busy}
        data-testid="replace-card-save"
      >
        {busy ? t('card.saving') : t('card.save')}
      </button>
      <button type="button" className="btn btn-ghost" disabled={busy} onClick={onCancel}>
        {t('dialog.back')}
      </button>
    </div>
  );
}

function SimulatedCardSetup({ clientSecret, onConfirmed, onCancel, errorWords }: SetupProps) {
  const { fields, failure, busy, submit } = useSimulatedCardForm(
    clientSecret,
    async (card) => {
      const { paymentMethodId } = await confirmSimulatedSetup(card);
      await onConfirmed(paymentMethodId);
    },
    errorWords,
  );

  return (
    <form onSubmit={submit} noValidate>
      <CardFields {...fields} />
      <p className="bl-alert" role="alert" data-testid="replace-card-error">
        {failure ?? ''}
      </p>
      <SetupActions busy={busy} onCancel={onCancel} />
      <TestCardsHint />
    </form>
  );
}

function StripeCardSetup({ clientSecret, onConfirmed, onCancel, errorWords }: SetupProps) {
  const { t } = useTranslation('billing');
  const host = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<{ stripe: Stripe; card: StripeCardElement } | null>(null);
  const [ready, setReady] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const mounted = stripeRef.current;
    if (busy || !mounted) return;
    setBusy(true);
    setFailure(null);
    try {
      const result = await mounted.stripe.confirmCardSetup(clientSecret, { payment_method: { card: mounted.card } });
      if (result.error) throw new Error(result.error.message ?? t('checkout.problems.generic'));
      const method = result.setupIntent.payment_method;
      const id = typeof method === 'string' ? method : method?.id;
      if (!id) throw new Error(t('checkout.problems.generic'));
      await onConfirmed(id);
    } catch (err) {
      setBusy(false);
      // Stripe.js words card errors itself (result.error.message); our API's refusals by code
      setFailure(err instanceof Error && !('code' in err) ? err.message : errorWords(err));
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <div className="bl-field">
        <span className="bl-label">{t('card.legend')}</span>
        <div ref={host} className="bl-stripe-card" />
      </div>
      <p className="bl-alert" role="alert" data-testid="replace-card-error">
        {failure ?? ''}
      </p>
      {ready && <SetupActions busy={busy} onCancel={onCancel} />}
    </form>
  );
}
