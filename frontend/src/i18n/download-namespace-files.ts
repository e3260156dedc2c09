import type { Language } from '@/i18n/languages';
import type { DownloadPageNamespace } from '@/i18n/namespace-names';

type Catalogue = { default: Record<string, unknown> };
const files = import.meta.glob<Catalogue>('./locales/{previews,abuse}/*.json');

/**
 * The loaders of the download page's catalogues (the previews, the report form): a table of 16
 * rather than the 136 of namespace-files.ts, whose 1.8 KiB gzip the page would otherwise fetch
 * before its thumbnails show.
 */
export function loadDownloadNamespaceFile(ns: DownloadPageNamespace, language: Language): Promise<Catalogue> {
  const load = files[`./locales/${ns}/${language}.json`];
  if (!load) return Promise.reject(new Error(`no catalogue ${ns}/${language}`));
  return load();
}
