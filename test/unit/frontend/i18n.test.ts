import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@/i18n/languages';
import { LOCALE_LOADERS } from '@/i18n/locale-loaders';

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
    const files = readdirSync(localesDir).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
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

    it("uses the same {{variables}} as en and has no empty texts", () => {
      for (const [key, value] of messages) {
        expect(value.trim(), key).not.toBe('');
        expect(interpolationVars(value), key).toEqual(interpolationVars(en.get(key) ?? ''));
      }
    });
  });
});
