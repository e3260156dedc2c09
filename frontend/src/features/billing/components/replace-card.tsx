import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardView, SetupIntentResponse } from '@domain/billing-api';
import { errorTextOf } from '@/i18n/error-keys';
import { addCard, createSetupIntent } from '../billing-api';
import { billingErrorKey } from '../billing-errors';
import { cardErrorMessage } from '../checkout-state';
import { SimulatedCardSetup } from './simulated-card-setup';
import { StripeCardSetup } from './stripe-card-setup';

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
