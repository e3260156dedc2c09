import { useTranslation } from 'react-i18next';
import type { PriceView, SimulatedSessionView } from '@domain/billing-api';
import { errorTextOf } from '@/i18n/error-keys';
import { usePlanName } from '@/lib/use-plan-name';
import { paySimulatedCheckout } from '../billing-api';
import { formatDay, formatMoney, periodKey } from '../billing-format';
import { cardErrorMessage, safeReturnPath } from '../checkout-state';
import { useSimulatedCardForm } from '../use-simulated-card-form';
import { CardFields } from './card-fields';
import { TestCardsHint } from './test-cards-hint';

const DAY_MS = 86_400_000;

/**
 * The simulated provider's checkout screen (it stands where Stripe's embedded Checkout would):
 * the plan and its price, the 7-day free trial with no charge for 7 days, the card, 'Start
 * trial'. A card error is shown as the provider words it and the screen stays; a paid session
 * goes to its return URL (/thankyou2?session_id=...).
 */
export function SimulatedCheckout({
  session,
  price,
  clientSecret,
  onComplete,
}: {
  readonly session: SimulatedSessionView;
  readonly price: PriceView;
  readonly clientSecret: string;
  onComplete(path: string): void;
}) {
  const { t, i18n } = useTranslation('billing');
  const { t: tApp } = useTranslation();
  const planName = usePlanName();
  const lng = i18n.resolvedLanguage ?? 'en';
  const trialDays = session.trialDays;
  const amount = formatMoney(price.amount, price.currency, lng);
  const { fields, failure, busy, submit } = useSimulatedCardForm(
    clientSecret,
    async (card) => {
      const done = await paySimulatedCheckout(card);
      onComplete(safeReturnPath(done.returnUrl, window.location.origin));
    },
    (err) => cardErrorMessage(err) ?? (tApp as (key: string) => string)(errorTextOf(err).key),
  );

  return (
    <section className="bl-checkout bl-simulated" aria-labelledby="bl-simulated-title" data-testid="simulated-checkout">
      <div className="bl-checkout-summary">
        <p className="eyebrow">{t('checkout.simulator')}</p>
        <h2 id="bl-simulated-title">{t('checkout.planTitle', { plan: planName(price.role) })}</h2>
        <p className="bl-checkout-price" data-testid="checkout-price">
          {t(`checkout.${periodKey(price.period)}`, { amount })}
        </p>
        <p className="bl-trial-note" data-testid="checkout-trial-note">
          {t('checkout.trialNote', { count: trialDays })}
        </p>
        {trialDays > 0 && (
          <p className="muted">
            {t('checkout.firstCharge', { amount, date: formatDay(Date.now() + trialDays * DAY_MS, lng) })}
          </p>
        )}
        <p className="muted">{t('checkout.email', { email: session.customerEmail })}</p>
      </div>
      <form className="bl-checkout-form" onSubmit={submit} noValidate>
        <CardFields {...fields} />
        <p className="bl-alert" role="alert" data-testid="checkout-error">
          {failure ?? ''}
        </p>
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={busy}
          aria-busy={busy}
          data-testid="checkout-submit"
        >
          {busy ? t('checkout.starting') : trialDays > 0 ? t('checkout.startTrial') : t('checkout.subscribe')}
        </button>
        <p className="muted bl-small">{t('checkout.refundNote')}</p>
      </form>
      <TestCardsHint />
    </section>
  );
}
