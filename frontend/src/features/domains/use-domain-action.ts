import type { DomainSettings } from '@domain/domains-api';
import { useAction } from '@/lib/use-action';

/** One call of a domain card ('add', 'check', 'remove'): its answer replaces the settings. */
export function useDomainAction(setSettings: (s: DomainSettings) => void) {
  const action = useAction();
  const run = (tag: 'add' | 'check' | 'remove', call: () => Promise<DomainSettings>) =>
    void action.run(async () => setSettings(await call()), { tag });
  return { busy: action.busyWith, error: action.error, run };
}
