import { alternatesOf, canonicalUrl, indexingFor, seoPageFor } from '@/app/seo-routes';
import { isLanguage, LANGUAGE_QUERY_PARAM, toLanguage, type Language } from '@/i18n/languages';
import { ROUTE_HEAD_ATTRIBUTE } from '@/lib/route-head-attribute';
import { holdNoIndex } from '@/lib/use-no-index';

/** What CloudFront and the local servers send on public pages (frontend/csp.ts). */
const PUBLIC_REFERRER_POLICY = 'strict-origin-when-cross-origin';

function setMeta(name: string, content: string | undefined): void {
  let meta = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"][${ROUTE_HEAD_ATTRIBUTE}]`);
  if (content === undefined) {
    meta?.remove();
    return;
  }
  if (meta?.content === content) return;
  // A new element rather than a changed attribute: browsers apply a referrer policy when its
  // <meta> is inserted.
  meta?.remove();
  meta = document.createElement('meta');
  meta.name = name;
  meta.content = content;
  meta.setAttribute(ROUTE_HEAD_ATTRIBUTE, '');
  document.head.append(meta);
}

/**
 * The public origin the build was configured with (vite.config.ts, PUBLIC_ORIGIN / APP_ORIGIN), put
 * in by the bundler where it is read here, so it costs no first load.
 */
declare const __SENDBRIDGE_PUBLIC_ORIGIN__: string | undefined;

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
  const value =
    dot === -1 ? texts[key] : (texts[key.slice(0, dot)] as Record<string, string> | undefined)?.[key.slice(dot + 1)];
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
  /** a hold on the noindex tag taken before this module loaded (lib/route-head.ts), now this module's */
  readonly heldNoIndex?: () => void;
}

let generation = 0;
/** the route rule's hold on the shared noindex tag, while the current route is not indexable */
let releaseNoIndex: (() => void) | undefined;

/**
 * The head of the address (app/seo-routes.ts): robots and referrer at once; then for an indexable
 * page its description, canonical URL and hreflang alternates, while other addresses get the
 * app's default description and no canonical. Languages are addressed with `?lng=`: the
 * canonical keeps it when the address has it, and drops every other query.
 */
export async function applyRouteHead({ pathname, search, language, heldNoIndex }: HeadInput): Promise<void> {
  const mine = ++generation;
  if (heldNoIndex) {
    if (releaseNoIndex) heldNoIndex();
    else releaseNoIndex = heldNoIndex;
  }
  const indexing = indexingFor(pathname);
  if (indexing !== 'index') releaseNoIndex ??= holdNoIndex();
  else {
    releaseNoIndex?.();
    releaseNoIndex = undefined;
  }
  setMeta('referrer', indexing === 'private' ? 'no-referrer' : PUBLIC_REFERRER_POLICY);
  const page = indexing === 'index' ? seoPageFor(pathname) : undefined;
  const meta = descriptionMeta();
  const texts = page ? await loadDescriptions(toLanguage(language)) : undefined;
  if (mine !== generation) return; // a later navigation owns the head now
  for (const old of document.head.querySelectorAll(`link[${ROUTE_HEAD_ATTRIBUTE}]`)) old.remove();
  if (!page || !texts) {
    meta.content = defaultDescription ?? '';
    return;
  }
  meta.content = descriptionOf(texts, page.descriptionKey) ?? defaultDescription ?? '';
  const origin =
    (typeof __SENDBRIDGE_PUBLIC_ORIGIN__ === 'string' && __SENDBRIDGE_PUBLIC_ORIGIN__) || window.location.origin;
  const named = new URLSearchParams(search).get(LANGUAGE_QUERY_PARAM);
  document.head.append(
    link('canonical', canonicalUrl(origin, page, isLanguage(named) ? named : undefined)),
    ...alternatesOf(origin, page.path).map((a) => link('alternate', a.href, a.hreflang)),
  );
}
