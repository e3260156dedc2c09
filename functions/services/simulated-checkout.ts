/**
 * The simulator's own checkout screen: what GET/POST /payments/simulated/* do. Only
 * while the simulator is the provider (404 `not_found` when PAYMENTS=stripe), and only on the
 * caller's own session or SetupIntent (anyone else's, or an unknown secret: the same 404).
 */
import type { SimulatedCardInput, SimulatedSessionView } from '../domain/billing-api';
import { simulatedPayments } from '../adapters/payments';
import { conflict, notFound } from '../lib/errors';
import { withCardErrors } from './payment-errors';

function simulatorOr404() {
  const sim = simulatedPayments();
  if (!sim) throw notFound();
  return sim;
}

export async function simulatedCheckoutView(userId: string, clientSecret: string): Promise<SimulatedSessionView> {
  const view = await simulatorOr404().checkoutView(clientSecret, userId);
  if (!view) throw notFound('checkout_not_found', 'This checkout is no longer available.');
  return view;
}

const cardFields = (input: SimulatedCardInput) => ({
  number: input.number,
  expMonth: input.expMonth,
  expYear: input.expYear,
  cvc: input.cvc,
  ...(input.name !== undefined ? { name: input.name } : {}),
  ...(input.postalCode !== undefined ? { postalCode: input.postalCode } : {}),
});

export async function payWithSimulatedCard(
  userId: string,
  input: SimulatedCardInput,
): Promise<{ status: 'complete'; returnUrl: string }> {
  const sim = simulatorOr404();
  const result = await withCardErrors(() => sim.completeCheckout(input.clientSecret, cardFields(input), userId));
  if (result.kind === 'not_found') throw notFound('checkout_not_found', 'This checkout is no longer available.');
  if (result.kind === 'not_open')
    throw conflict(
      'checkout_not_open',
      result.status === 'expired'
        ? 'This checkout session has expired. Start again from the plans.'
        : 'This checkout session is already complete.',
    );
  return { status: 'complete', returnUrl: result.returnUrl };
}

export async function confirmSimulatedSetup(
  userId: string,
  input: SimulatedCardInput,
): Promise<{ paymentMethodId: string }> {
  const sim = simulatorOr404();
  const result = await withCardErrors(() => sim.confirmSetup(input.clientSecret, cardFields(input), userId));
  if (result.kind === 'not_found') throw notFound('checkout_not_found', 'This checkout is no longer available.');
  if (result.kind === 'not_open')
    throw conflict('setup_not_open', 'This card form was already used. Open it again to add another card.');
  return { paymentMethodId: result.paymentMethodId };
}
