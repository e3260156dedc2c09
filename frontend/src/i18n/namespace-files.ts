import type { Language } from '@/i18n/languages';
import type { LazyNamespace } from '@/i18n/namespace-names';

type Catalogue = { default: Record<string, unknown> };
const files = import.meta.glob<Catalogue>(
  './locales/{transfers,insights,contacts,requests,settings,billing,send,account,pages,teams,domains,branding,marketing,webhooks,api,live,access}/*.json',
);

/**
 * One dynamic import per (namespace, language). This table of loaders is its own small
 * chunk, fetched the first time a lazy namespace is needed, so the entry chunk does not carry it.
 * The download page's two catalogues have a table of their own (download-namespace-files.ts).
 */
export function loadNamespaceFile(ns: LazyNamespace, language: Language): Promise<Catalogue> {
  const load = files[`./locales/${ns}/${language}.json`];
  if (!load) return Promise.reject(new Error(`no catalogue ${ns}/${language}`));
  return load();
}
