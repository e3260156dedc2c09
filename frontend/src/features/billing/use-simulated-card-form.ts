import { useRef, useState, type FormEvent } from 'react';
import { cardProblems, hasProblem, simulatedCard, type CardProblems } from './card-format';
import { EMPTY_CARD, type CardValues } from './components/card-fields';

/**
 * The simulator's card form, shared by its checkout and its card replacement: the fields'
 * state, the local checks (incomplete fields, a past expiry) before anything is sent, then
 * `send` with the card as the simulator takes it. A refusal is shown in `errorWords`' words and
 * the number field takes the focus; after a success the form stays busy while its screen moves on.
 */
export function useSimulatedCardForm(
  clientSecret: string,
  send: (card: ReturnType<typeof simulatedCard>) => Promise<void>,
  errorWords: (err: unknown) => string,
) {
  const [card, setCard] = useState<CardValues>(EMPTY_CARD);
  const [problems, setProblems] = useState<CardProblems | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const numberRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = cardProblems(card, new Date());
    setProblems(found);
    setFailure(null);
    if (hasProblem(found)) return;
    setBusy(true);
    try {
      await send(simulatedCard(card, clientSecret));
    } catch (err) {
      setBusy(false);
      setFailure(errorWords(err));
      numberRef.current?.focus();
    }
  };

  return { fields: { values: card, onChange: setCard, problems, disabled: busy, numberRef }, failure, busy, submit };
}
