/**
 * Product mail copy, read from the app's i18next catalogues: `frontend/src/i18n/locales/mail/<lang>.json`,
 * one per UI language (en is the source of truth; a unit test keeps every language's keys and
 * plural forms whole). Only the mail catalogues are bundled here, statically, not the app's own
 * (a few KB per language instead of ~45 KB); one i18next instance, created once per Lambda.
 *
 * User values never pass through i18next: the copy is resolved with placeholder slots, then the
 * slots are filled: plain values for the text part and subjects; for HTML the copy's own words
 * are escaped and the values, already markup, go in as they are. Plurals are i18next's
 * (Intl.PluralRules of the language: French counts 0 as singular); counts are formatted with
 * the language's digits grouping (`{{count, number}}`).
 */
import i18next from 'i18next';
import { MAIL_LANGUAGES, mailLanguageOf, type MailLanguage } from '../../domain/transfer-api';
import de from '../../../frontend/src/i18n/locales/mail/de.json';
import en from '../../../frontend/src/i18n/locales/mail/en.json';
import es from '../../../frontend/src/i18n/locales/mail/es.json';
import fr from '../../../frontend/src/i18n/locales/mail/fr.json';
import it from '../../../frontend/src/i18n/locales/mail/it.json';
import ja from '../../../frontend/src/i18n/locales/mail/ja.json';
import ko from '../../../frontend/src/i18n/locales/mail/ko.json';
import zh from '../../../frontend/src/i18n/locales/mail/zh.json';
import { escapeHtml, type Html } from './layout';

export const MAIL_CATALOGUES: Readonly<Record<MailLanguage, object>> = { en, zh, fr, it, de, es, ko, ja };

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
type WithoutPlural<K> = K extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : K;
/** A mail copy key ('transfer.subject'; plurals by their base: 'fileCount'). */
export type MailKey = WithoutPlural<Leaves<typeof en>>;

const NS = 'mail';
let instance: ReturnType<typeof i18next.createInstance> | undefined;

/** Created on the first mail, not at import: most requests of a function send none. */
function mailI18n(): ReturnType<typeof i18next.createInstance> {
  if (!instance) {
    instance = i18next.createInstance();
    void instance.init({
      resources: Object.fromEntries(MAIL_LANGUAGES.map((lang) => [lang, { [NS]: MAIL_CATALOGUES[lang] }])),
      ns: [NS],
      defaultNS: NS,
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: [...MAIL_LANGUAGES],
      // resources are here already: init completes synchronously
      initAsync: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      returnEmptyString: false,
    });
  }
  return instance;
}

const SLOT = /\uE000(\w+)\uE001/gu;
const slot = (name: string) => `\uE000${name}\uE001`;

export interface MailCopy {
  readonly lang: MailLanguage;
  /** BCP 47 locale for dates, numbers and country names */
  readonly locale: string;
  /** what goes between a label and its value ('Message: …'; French puts a no-break space before it) */
  readonly colon: string;
  /** a byte unit of formatBytes (B, KB, …) in this language (French o, ko, Mo, …) */
  unit(unit: string): string;
  /** Plain copy, values as they are (text part, subjects). */
  text(key: MailKey, vars?: Readonly<Record<string, string>>, count?: number): string;
  /** HTML copy: its own words escaped, the values (already markup) inserted as they are. */
  html(key: MailKey, vars?: Readonly<Record<string, Html>>, count?: number): Html;
}

function resolve(lang: MailLanguage, key: string, names: readonly string[], count: number | undefined): string {
  const options: Record<string, unknown> = { lng: lang, ns: NS };
  for (const name of names) options[name] = slot(name);
  if (count !== undefined) options.count = count;
  // The app's typed keys (i18next.d.ts) describe its own catalogue, not this namespace.
  const i18n = mailI18n();
  const t = i18n.t.bind(i18n) as unknown as (key: string, options: Record<string, unknown>) => unknown;
  const copy = t(key, options);
  if (typeof copy !== 'string' || copy === key) throw new Error(`Mail copy ${key} is missing`);
  const unfilled = /\{\{\s*(\w+)/u.exec(copy);
  if (unfilled) throw new Error(`Mail copy placeholder ${unfilled[1]} of ${key} has no value`);
  return copy;
}

function fillSlots<T extends string>(
  copy: string,
  vars: Readonly<Record<string, T>>,
  literal: (s: string) => string,
): string {
  let out = '';
  let last = 0;
  for (const match of copy.matchAll(SLOT)) {
    out += literal(copy.slice(last, match.index)) + (vars[match[1] ?? ''] ?? '');
    last = match.index + match[0].length;
  }
  return out + literal(copy.slice(last));
}

/** The copy of a language; anything outside MAIL_LANGUAGES (a raw value slipping through) reads English. */
export function copyFor(lang: string): MailCopy {
  const language = mailLanguageOf(lang);
  const plain = (key: string) => resolve(language, key, [], undefined);
  return {
    lang: language,
    locale: plain('format.locale'),
    colon: plain('format.colon'),
    unit: (unit) =>
      mailI18n().exists(`format.units.${unit}`, { lng: language }) ? plain(`format.units.${unit}`) : unit,
    text: (key, vars = {}, count) => fillSlots(resolve(language, key, Object.keys(vars), count), vars, (s) => s),
    html: (key, vars = {}, count) =>
      fillSlots(resolve(language, key, Object.keys(vars), count), vars, escapeHtml) as Html,
  };
}
