import { confirmSimulatedSetup } from '../billing-api';
import { useSimulatedCardForm } from '../use-simulated-card-form';
import { CardFields } from './card-fields';
import { TestCardsHint } from './test-cards-hint';
import { SetupActions, type SetupProps } from './setup-actions';

/** The simulator's card setup: our card form, then POST /payments/simulated/setup. */
export function SimulatedCardSetup({ clientSecret, onConfirmed, onCancel, errorWords }: SetupProps) {
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
