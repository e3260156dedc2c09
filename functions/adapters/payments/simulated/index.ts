/** The payments simulator, configured from the environment (PAYMENTS_WEBHOOK_URL, PAYMENTS_WEBHOOK_SECRET, APP_ORIGIN). */
import { paymentsConfig } from '../../../lib/env';
import { PaymentsSimulator } from './simulator';

let instance: PaymentsSimulator | undefined;

export function simulator(): PaymentsSimulator {
  instance ??= new PaymentsSimulator({
    target: () => ({ url: paymentsConfig().webhookUrl, secret: paymentsConfig().simulatorWebhookSecret }),
    appOrigin: () => paymentsConfig().appOrigin,
  });
  return instance;
}

export { PaymentsSimulator } from './simulator';
export type { AdvanceResult, CompleteCheckoutResult, ConfirmSetupResult } from './simulator';
export type { EventWithDelivery, DeliveryRecord, SimEvent } from './events';
