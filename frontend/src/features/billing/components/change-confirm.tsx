import { useTranslation } from 'react-i18next';
import type { BillingPeriod, PriceView, SubscriptionView } from '@domain/billing-api';
import { usePlanName } from '@/lib/use-plan-name';
import type { Action } from '@/lib/use-action';
import { formatDay, formatMoney, periodKey } from '../billing-format';
import type { ChangeKind, TrialRole } from '../price-choice';
import { ConfirmActions } from './confirm-dialog';

/** The confirmation of a live subscription's change: now with proration, or at the period's end. */
export function ChangeConfirm({
  role,
  period,
  target,
  kind,
  view,
  action,
  onConfirm,
  onKeep,
}: {
  role: TrialRole;
  period: BillingPeriod;
  target: PriceView;
  kind: ChangeKind | null;
  view: SubscriptionView;
  action: Action;
  onConfirm: () => void;
  onKeep: () => void;
}) {
  const { t, i18n } = useTranslation('billing');
  const lng = i18n.resolvedLanguage ?? 'en';
  const planName = usePlanName();
  return (
    <div className="card bl-change" data-testid="upgrade-confirm">
      <h3>
        {t('upgrade.confirmTitle', {
          plan: planName(role),
          price: t(`checkout.${periodKey(period)}`, { amount: formatMoney(target.amount, target.currency, lng) }),
        })}
      </h3>
      <p>
        {kind === 'upgrade'
          ? t('upgrade.upgradeNote')
          : view.renewalDate !== null
            ? t('upgrade.downgradeNote', { date: formatDay(view.renewalDate, lng) })
            : t('upgrade.downgradeNoteNoDate')}
      </p>
      {action.error && (
        <p className="bl-alert" role="alert" data-testid="upgrade-error">
          {action.error}
        </p>
      )}
      <ConfirmActions
        busy={action.busy}
        confirmLabel={kind === 'upgrade' ? t('upgrade.confirmUpgrade') : t('upgrade.confirmDowngrade')}
        onConfirm={onConfirm}
        confirmTestId="upgrade-confirm-button"
        backLabel={t('upgrade.keep')}
        onBack={onKeep}
      />
    </div>
  );
}
