import { i18n } from '@/i18n/i18n';

type Catalogue = Record<string, string>;
/**
 * The texts of an end-to-end encrypted transfer's page, every language at once (about 5 KiB
 * gzip), in this chunk: only such a transfer loads them, no loader table of the other pages
 * grows, and a language switch finds its catalogue already there.
 */
const catalogues = import.meta.glob<Catalogue>('../../../i18n/locales/sealed/*.json', {
  eager: true,
  import: 'default',
});

export function addSealedTexts(): void {
  for (const [file, texts] of Object.entries(catalogues)) {
    const language = /([a-z]{2})\.json$/u.exec(file)?.[1];
    if (language && !i18n.hasResourceBundle(language, 'sealed')) i18n.addResourceBundle(language, 'sealed', texts);
  }
}
