import type { Language } from '@/i18n/languages';

type Catalogue = { default: Record<string, unknown> };
const files = import.meta.glob<Catalogue>('./locales/sender-review/*.json');

/**
 * The loaders of the sender's review catalogue (the TransferModal's review, the bell's review
 * items): a table of its own, fetched with them, so the dashboard's first load does not carry
 * eight more loaders in namespace-files.ts.
 */
export function loadReviewNamespaceFile(language: Language): Promise<Catalogue> {
  const load = files[`./locales/sender-review/${language}.json`];
  if (!load) return Promise.reject(new Error(`no catalogue sender-review/${language}`));
  return load();
}
