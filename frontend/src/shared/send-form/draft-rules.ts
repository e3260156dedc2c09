/**
 * The transfer draft schema and the issue reader (functions/domain/validation.ts, with zod), loaded
 * on first use rather than with the send form: home's first load carries no zod. The form starts
 * loading them on the sender's first interaction with it and waits for them before a submit, so
 * a send is always checked by the schema the API applies (conventions 4).
 */
import type { problemOf, transferDraftSchema } from '@domain/validation';
import { importWithRetry } from '@/lib/import-with-retry';

export interface DraftRules {
  readonly transferDraftSchema: typeof transferDraftSchema;
  readonly problemOf: typeof problemOf;
}

let loaded: DraftRules | null = null;
let loading: Promise<DraftRules> | null = null;

/** The rules once loaded, else null. */
export function draftRules(): DraftRules | null {
  return loaded;
}

/** Loads the rules once (retrying like any lazy chunk); a failed load is tried again on the next call. */
export function loadDraftRules(): Promise<DraftRules> {
  loading ??= importWithRetry(() => import('@domain/validation')).then(
    (rules) => (loaded = rules),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
