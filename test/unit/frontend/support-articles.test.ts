import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { SUPPORT_ARTICLES, isSupportArticle } from '@/features/support/support-articles';
import { LANGUAGES } from '@/i18n/languages';

const srcDir = fileURLToPath(new URL('../../../frontend/src/', import.meta.url));
const localesDir = join(srcDir, 'i18n/locales');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

type Items = Record<string, { title?: unknown; body?: unknown }>;

function items(language: string): Items {
  const locale = JSON.parse(readFileSync(join(localesDir, 'send', `${language}.json`), 'utf8')) as {
    support: { items: Items };
  };
  return locale.support.items;
}

describe('support articles', () => {
  it('every support link in the app names an existing article', () => {
    // An unknown id silently shows the article list, so a typo or a missing article goes unnoticed.
    const linked = sourceFiles(srcDir).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/paths\.support\(\{\s*article:\s*'([^']+)'/g)].map((m) => m[1] ?? ''),
    );
    expect(linked).toEqual(expect.arrayContaining(['privacy', 'terms']));
    expect(linked.filter((id) => !isSupportArticle(id))).toEqual([]);
  });

  it.each([...LANGUAGES])('%s has a title and a body for each article and no others', (language) => {
    const own = items(language);
    expect(Object.keys(own).sort()).toEqual([...SUPPORT_ARTICLES].sort());
    for (const id of SUPPORT_ARTICLES) {
      expect(typeof own[id]?.title === 'string' && own[id].title.trim() !== '', `${id}.title`).toBe(true);
      expect(typeof own[id]?.body === 'string' && own[id].body.trim() !== '', `${id}.body`).toBe(true);
    }
  });

  it.each([...LANGUAGES])('%s legal articles give the support address the page passes in', async (language) => {
    const i18n = createInstance();
    await i18n.init({
      lng: language,
      resources: { [language]: { translation: { support: { items: items(language) } } } },
    });
    for (const id of ['privacy', 'terms'] as const) {
      const body = i18n.t(`support.items.${id}.body`, { email: 'help@example.test' });
      expect(body, id).toContain('help@example.test');
      expect(body, id).not.toContain('{{');
    }
  });
});
