import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StripeDataResponse } from '@domain/billing-api';
import { errorTextOf } from '@/i18n/error-keys';
import { useSession } from '@/lib/session/session-provider';
import { useAction } from '@/lib/use-action';
import { setCancel } from './billing-api';
import { billingErrorKey } from './billing-errors';
import type { useStripeData } from './use-stripe-data';

export type BillingDialog = 'cancel' | 'refund' | null;

/**
 * The billing page's actions: cancel and refund through their confirmation dialog, resume
 * straight away; each success says so in the page's notice and reloads the invoices.
 */
export function useBillingActions(stripe: ReturnType<typeof useStripeData>) {
  const { t } = useTranslation('billing');
  const { t: tApp } = useTranslation();
  const session = useSession();
  const [dialog, setDialog] = useState<BillingDialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  // a dialog's action says its refusal in the dialog; Resume's in the notice
  const action = useAction({
    errorText: (err) => {
      const own = billingErrorKey(err);
      return own ? t(own) : (tApp as (key: string) => string)(errorTextOf(err).key);
    },
  });

  const act = (run: () => Promise<StripeDataResponse>, done: string) =>
    void action.run(async () => {
      const data = await run();
      stripe.set(data);
      setDialog(null);
      setNotice(done);
      setRound((n) => n + 1);
      void session.reloadUser().catch(() => undefined);
    });

  const resume = () =>
    void action.run(
      async () => {
        setNotice(null);
        const data = await setCancel(false);
        stripe.set(data);
        setNotice(t('page.resumed'));
        void session.reloadUser().catch(() => undefined);
      },
      { onError: (_err, text) => setNotice(text) },
    );

  const ask = (next: BillingDialog) => {
    action.setError(null);
    setDialog(next);
  };

  return { action, dialog, setDialog, ask, notice, setNotice, round, act, resume };
}
