import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@/i18n/languages';
import { LOCALE_LOADERS } from '@/i18n/locale-loaders';
import { LAZY_NAMESPACES } from '@/i18n/namespace-names';
import { MAIL_LANGUAGES } from '@domain/transfer-api';
import { TEXTS } from '@domain/texts';
import { MAIL_CATALOGUES } from '../../../functions/adapters/mail/copy';

const localesDir = fileURLToPath(new URL('../../../frontend/src/i18n/locales/', import.meta.url));

type Tree = { [key: string]: string | Tree };

function readLocale(language: string): Tree {
  return JSON.parse(readFileSync(`${localesDir}${language}.json`, 'utf8')) as Tree;
}

/** 'a.b.c' -> string value, for every leaf. */
function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

function interpolationVars(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}

const en = flatten(readLocale('en'));

describe('locales', () => {
  it('there is one locale file per UI language and nothing else', () => {
    const files = readdirSync(localesDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...LANGUAGES].sort());
  });

  it('every language but English is loaded lazily', () => {
    expect(Object.keys(LOCALE_LOADERS).sort()).toEqual(LANGUAGES.filter((l) => l !== 'en').sort());
  });

  it('English has no empty texts', () => {
    for (const [key, value] of en) expect(value.trim(), key).not.toBe('');
  });

  describe.each(LANGUAGES.filter((l) => l !== 'en'))('%s', (language) => {
    const messages = flatten(readLocale(language));

    it("has exactly en's keys", () => {
      const missing = [...en.keys()].filter((k) => !messages.has(k));
      const extra = [...messages.keys()].filter((k) => !en.has(k));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it('uses the same {{variables}} as en and has no empty texts', () => {
      for (const [key, value] of messages) {
        expect(value.trim(), key).not.toBe('');
        expect(interpolationVars(value), key).toEqual(interpolationVars(en.get(key) ?? ''));
      }
    });
  });
});

/** The lazy catalogues (locales/<namespace>/<lang>.json: the dashboard's and the catalogue's sections), held to the same rules. */
describe.each(LAZY_NAMESPACES)('lazy namespace %s', (ns) => {
  const dir = `${localesDir}${ns}/`;
  const read = (language: string) => flatten(JSON.parse(readFileSync(`${dir}${language}.json`, 'utf8')) as Tree);
  const nsEn = read('en');

  it('has one catalogue per UI language and nothing else', () => {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...LANGUAGES].sort());
  });

  it('shares no top-level key with the bundled catalogue (a key lives in one place)', () => {
    const bundled = new Set(Object.keys(readLocale('en')));
    const own = Object.keys(JSON.parse(readFileSync(`${dir}en.json`, 'utf8')) as Tree);
    expect(own.filter((k) => bundled.has(k))).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    "%s has exactly en's keys, the same {{variables}}, no empty texts",
    (language) => {
      const messages = read(language);
      const missing = [...nsEn.keys()].filter((k) => !messages.has(k));
      const extra = [...messages.keys()].filter((k) => !nsEn.has(k));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
      for (const [key, value] of messages) {
        expect(value.trim(), key).not.toBe('');
        expect(interpolationVars(value), key).toEqual(interpolationVars(nsEn.get(key) ?? ''));
      }
    },
  );
});

/**
 * Product mail reads the same i18next catalogues (locales/mail/<lang>.json, bundled into the
 * mail Lambda code without the app's catalogue). Plural keys are compared by their base, and each
 * language must have exactly the plural forms its Intl.PluralRules use.
 */
describe('mail locales', () => {
  const mailDir = `${localesDir}mail/`;
  const PLURAL = /_(zero|one|two|few|many|other)$/u;
  const readMail = (language: string) =>
    flatten(JSON.parse(readFileSync(`${mailDir}${language}.json`, 'utf8')) as Tree);
  const bases = (keys: Iterable<string>) => new Set([...keys].map((k) => k.replace(PLURAL, '')));
  const mailEn = readMail('en');
  const pluralBases = new Set([...mailEn.keys()].filter((k) => PLURAL.test(k)).map((k) => k.replace(PLURAL, '')));
  /** {{name}} and {{name, format}}: the names only */
  const mailVars = (text: string) => [...new Set([...text.matchAll(/\{\{\s*(\w+)/gu)].map((m) => m[1] ?? ''))].sort();

  it('there is one mail catalogue per UI language, and mail speaks exactly those languages', () => {
    const files = readdirSync(mailDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...LANGUAGES].sort());
    expect([...MAIL_LANGUAGES].sort()).toEqual([...LANGUAGES].sort());
    expect(Object.keys(MAIL_CATALOGUES).sort()).toEqual([...LANGUAGES].sort());
  });

  it('English mail copy has no empty texts and keeps the spec wording it shares with the app', () => {
    for (const [key, value] of mailEn) expect(value.trim(), key).not.toBe('');
    expect(mailEn.get('transfer.password')?.startsWith(TEXTS.download401)).toBe(true);
    expect(mailEn.get('extensionGranted.heading')).toBe(TEXTS.linkExtended.replace('48', '{{hours}}'));
  });

  describe.each(LANGUAGES)('%s', (language) => {
    const messages = readMail(language);
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;

    it("has exactly en's keys", () => {
      const missing = [...bases(mailEn.keys())].filter((k) => !bases(messages.keys()).has(k));
      const extra = [...bases(messages.keys())].filter((k) => !bases(mailEn.keys()).has(k));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it('has exactly the plural forms the language uses', () => {
      for (const base of pluralBases) {
        const forms = [...messages.keys()]
          .filter((k) => k.replace(PLURAL, '') === base && PLURAL.test(k))
          .map((k) => PLURAL.exec(k)?.[1]);
        expect(forms.sort(), base).toEqual([...categories].sort());
      }
    });

    it('uses the same {{variables}} as en and has no empty texts', () => {
      const enByBase = new Map([...mailEn].map(([k, v]) => [k.replace(PLURAL, ''), v]));
      for (const [key, value] of messages) {
        expect(value.trim(), key).not.toBe('');
        if (key.startsWith('format.')) continue;
        expect(mailVars(value), key).toEqual(mailVars(enByBase.get(key.replace(PLURAL, '')) ?? ''));
      }
    });
  });
});
