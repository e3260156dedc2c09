import { useTranslation } from 'react-i18next';
import type { SubscriptionView } from '@domain/billing-api';
import { canRefund, formatDay, renewalLine } from '../billing-format';

export interface CancelSectionProps {
  readonly view: SubscriptionView;
  readonly now: number;
  readonly busy: boolean;
  onResume(): void;
  /** opens the question (a dialog) */
  onAsk(dialog: 'cancel' | 'refund'): void;
}

/** Cancel at the period end (or Resume once cancelled), and the 30-day refund while it lasts. */
export function CancelSection({ view, now, busy, onResume, onAsk }: CancelSectionProps) {
  const { t, i18n } = useTranslation('billing');
  const lng = i18n.resolvedLanguage ?? 'en';
  const renewal = renewalLine(view);
  const refundable = canRefund(view, now);
  return (
    <section className="card bl-cancel" aria-labelledby="bl-cancel-title">
      <h2 id="bl-cancel-title">{view.cancelAtPeriodEnd ? t('page.cancelledTitle') : t('page.cancelTitle')}</h2>
      {view.cancelAtPeriodEnd ? (
        <>
          <p>
            {renewal ? t('page.cancelledBody', { date: formatDay(renewal.at, lng) }) : t('page.cancelledBodyNoDate')}
          </p>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={busy}
            onClick={onResume}
            data-testid="billing-resume"
          >
            {t('page.resume')}
          </button>
        </>
      ) : (
        <>
          <p>{t('page.cancelBody')}</p>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => onAsk('cancel')}
            data-testid="billing-cancel"
          >
            {t('page.cancel')}
          </button>
        </>
      )}
      {refundable && view.refundableUntil !== null && (
        <div className="bl-refund">
          <p>{t('page.refundBody', { date: formatDay(view.refundableUntil, lng) })}</p>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => onAsk('refund')}
            data-testid="billing-refund"
          >
            {t('page.refund')}
          </button>
        </div>
      )}
    </section>
  );
}
