/**
 * The /developers reference speaks the reader's language: every operation of the OpenAPI
 * document this code generates has its summary and description, and every tag its name, in the
 * `api` catalogue of every UI language (the page falls back to the document's English only for
 * an operation newer than the catalogues).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../../functions/domain/openapi';
import { apiDocView } from '@/features/developers/openapi-view';
import { LANGUAGES } from '@/i18n/languages';

interface Reference {
  readonly tags?: Record<string, string>;
  readonly operations?: Record<string, { summary?: string; description?: string }>;
}

const reference = (language: string): Reference =>
  (
    JSON.parse(
      readFileSync(new URL(`../../../../frontend/src/i18n/locales/api/${language}.json`, import.meta.url), 'utf8'),
    ) as { docs: { reference: Reference } }
  ).docs.reference;

const view = apiDocView(openApiDocument('https://app.example/api'));
const operations = view.tags.flatMap((tag) => tag.operations);

describe('the API reference in every language', () => {
  it('knows each operation by its operationId', () => {
    expect(operations.length).toBeGreaterThan(10);
    expect(operations.every((op) => typeof op.operationId === 'string' && op.operationId.length > 0)).toBe(true);
  });

  it.each([...LANGUAGES])('%s: a summary and a description for every operation, a name for every tag', (language) => {
    const ref = reference(language);
    const missing = operations
      .filter(
        (op) =>
          !ref.operations?.[op.operationId!]?.summary?.trim() ||
          !ref.operations?.[op.operationId!]?.description?.trim(),
      )
      .map((op) => op.id);
    expect(missing).toEqual([]);
    expect(view.tags.map((tag) => tag.name).filter((name) => !ref.tags?.[name]?.trim())).toEqual([]);
    // nothing for operations the document no longer has
    const known = new Set(operations.map((op) => op.operationId));
    expect(Object.keys(ref.operations ?? {}).filter((id) => !known.has(id))).toEqual([]);
  });

  it('is translated, not English, outside English', () => {
    const en = reference('en');
    for (const language of LANGUAGES.filter((l) => l !== 'en')) {
      const ref = reference(language);
      const same = operations
        .filter(
          (op) => ref.operations?.[op.operationId!]?.description === en.operations?.[op.operationId!]?.description,
        )
        .map((op) => op.id);
      expect(same, language).toEqual([]);
    }
  });
});
