import { alternatesOf, canonicalUrl, indexingFor, seoPageFor } from '@/app/seo-routes';
import { env } from '@/config/env';
import { isLanguage, LANGUAGE_QUERY_PARAM, toLanguage, type Language } from '@/i18n/languages';
import { ROUTE_HEAD_ATTRIBUTE } from '@/lib/route-head';

type Descriptions = Record<string, string | Record<string, string>>;
const catalogues = import.meta.glob<{ default: Descriptions }>('../i18n/locales/seo/*.json');

/** The page descriptions of one language (locales/seo/<lng>.json), each file loaded once. */
export async function loadDescriptions(language: Language): Promise<Descriptions> {
  const load = catalogues[`../i18n/locales/seo/${language}.json`];
  if (!load) throw new Error(`no seo catalogue for ${language}`);
  return (await load()).default;
}

/** `home` or `product.document-receipts` in a catalogue. */
export function descriptionOf(texts: Descriptions, key: string): string | undefined {
  const dot = key.indexOf('.');
  const value = dot === -1 ? texts[key] : (texts[key.slice(0, dot)] as Record<string, string> | undefined)?.[key.slice(dot + 1)];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

let defaultDescription: string | undefined;

function descriptionMeta(): HTMLMetaElement {
  let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'description';
    document.head.append(meta);
  }
  defaultDescription ??= meta.content;
  return meta;
}

function link(rel: string, href: string, hreflang?: string): HTMLLinkElement {
  const element = document.createElement('link');
  element.rel = rel;
  element.href = href;
  if (hreflang) element.hreflang = hreflang;
  element.setAttribute(ROUTE_HEAD_ATTRIBUTE, '');
  return element;
}

export interface HeadInput {
  readonly pathname: string;
  readonly search: string;
  /** the language the screen is shown in */
  readonly language: string;
}

/**
 * The description, canonical URL and hreflang alternates of an indexable page (app/seo-routes.ts);
 * other addresses get the app's default description and no canonical. Languages are addressed
 * with `?lng=`: the canonical keeps it when the address has it, and drops every other query.
 */
export async function applySeoHead({ pathname, search, language }: HeadInput): Promise<void> {
  const page = indexingFor(pathname) === 'index' ? seoPageFor(pathname) : undefined;
  const meta = descriptionMeta();
  const texts = page ? await loadDescriptions(toLanguage(language)) : undefined;
  for (const old of document.head.querySelectorAll(`link[${ROUTE_HEAD_ATTRIBUTE}]`)) old.remove();
  if (!page || !texts) {
    meta.content = defaultDescription ?? '';
    return;
  }
  meta.content = descriptionOf(texts, page.descriptionKey) ?? defaultDescription ?? '';
  const origin = env.publicOrigin || window.location.origin;
  const named = new URLSearchParams(search).get(LANGUAGE_QUERY_PARAM);
  document.head.append(
    link('canonical', canonicalUrl(origin, page, isLanguage(named) ? named : undefined)),
    ...alternatesOf(origin, page.path).map((a) => link('alternate', a.href, a.hreflang)),
  );
}
