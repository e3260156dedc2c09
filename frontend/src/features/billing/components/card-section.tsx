import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CardView, SubscriptionView } from '@domain/billing-api';
import { brandName, formatCardExpiry, hasManagedSubscription } from '../billing-format';
import { ReplaceCard } from './replace-card';

/** The card on file and, with a subscription, its replacement. */
export function CardSection({ view, onReplaced }: { view: SubscriptionView; onReplaced: (card: CardView) => void }) {
  const { t } = useTranslation('billing');
  const [replacing, setReplacing] = useState(false);
  const managed = hasManagedSubscription(view);
  return (
    <section className="card bl-payment" aria-labelledby="bl-card-title" data-testid="billing-card">
      <h2 id="bl-card-title">{t('page.card')}</h2>
      {view.card ? (
        <p data-testid="billing-card-summary">
          {t('page.cardSummary', {
            brand: brandName(view.card.brand),
            last4: view.card.last4,
            expiry: formatCardExpiry(view.card),
          })}
        </p>
      ) : (
        <p className="muted">{t('page.noCard')}</p>
      )}
      {managed &&
        (replacing ? (
          <ReplaceCard
            onReplaced={(card) => {
              setReplacing(false);
              onReplaced(card);
            }}
            onCancel={() => setReplacing(false)}
          />
        ) : (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => setReplacing(true)}
            data-testid="billing-replace-card"
          >
            {t('card.replace')}
          </button>
        ))}
    </section>
  );
}
