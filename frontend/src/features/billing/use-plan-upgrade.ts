import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { BillingConfigResponse, BillingPeriod, StripeDataResponse } from '@domain/billing-api';
import type { Role } from '@domain/plans';
import { ApiError } from '@/lib/api';
import { errorTextOf } from '@/i18n/error-keys';
import { formatSize } from '@/lib/format-size';
import { useSession } from '@/lib/session/session-provider';
import { useAction } from '@/lib/use-action';
import { usePlanName } from '@/lib/use-plan-name';
import { changePlan, fetchBillingConfig } from './billing-api';
import { billingErrorKey } from './billing-errors';
import { storageExcess } from './billing-format';
import { isTrialRole, parsePeriod, selectedPlan, type TrialRole } from './price-choice';
import { useStripeData } from './use-stripe-data';

/**
 * The plan upgrade's state: the choice in the address (?plan&period&coupon), the billing config,
 * the subscription, and the change of a live subscription (its refusal in the billing words).
 */
export function usePlanUpgrade() {
  const { t, i18n } = useTranslation('billing');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const planName = usePlanName();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const stripe = useStripeData();
  const [config, setConfig] = useState<BillingConfigResponse | null>(null);
  const [configFailed, setConfigFailed] = useState(false);
  const [done, setDone] = useState<StripeDataResponse | null>(null);
  const period = parsePeriod(params.get('period'));
  const chosen = selectedPlan(params.get('plan'));
  const role: TrialRole | null = isTrialRole(chosen) ? chosen : null;
  const coupon = params.get('coupon');

  const action = useAction({
    errorText: (err) => {
      if (err instanceof ApiError && err.code === 'storage_exceeds_plan') {
        const excess = storageExcess(err.details);
        if (excess)
          return t('upgrade.storageExceeds', {
            used: formatSize(excess.used, lng),
            limit: formatSize(excess.limit, lng),
            plan: planName(excess.role ?? role ?? ''),
          });
        return t('upgrade.storageExceedsShort');
      }
      const own = billingErrorKey(err);
      if (own) return t(own);
      return (tApp as (key: string) => string)(errorTextOf(err).key);
    },
  });

  useEffect(() => {
    let live = true;
    fetchBillingConfig()
      .then((answer) => live && setConfig(answer))
      .catch(() => live && setConfigFailed(true));
    return () => {
      live = false;
    };
  }, []);

  const setQuery = (next: { plan?: Role | null; period?: BillingPeriod }) => {
    setDone(null);
    action.setError(null);
    setParams(
      (current) => {
        const query = new URLSearchParams(current);
        query.set('tab', '1');
        if (next.period) query.set('period', next.period);
        if (next.plan === null) query.delete('plan');
        else if (next.plan) query.set('plan', next.plan);
        return query;
      },
      { replace: true, preventScrollReset: true },
    );
  };

  const confirmChange = async (priceId: string) => {
    setDone(null);
    const ok = await action.run(async () => {
      const data = await changePlan({ priceId });
      stripe.set(data);
      setDone(data);
    });
    if (ok) void session.reloadUser().catch(() => undefined);
  };

  return { period, role, coupon, config, configFailed, stripe, done, action, setQuery, confirmChange };
}
