import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { humanDuration } from '@domain/format';
import { TEXTS } from '@domain/texts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '@domain/units';
import { elapsedUnit, expiredText } from '@/features/downloads/expired-text';
import { transferTitle } from '@/features/downloads/transfer-title';

const localesDir = fileURLToPath(new URL('../../../frontend/src/i18n/locales/', import.meta.url));
const readLocale = (language: string) =>
  JSON.parse(readFileSync(`${localesDir}${language}.json`, 'utf8')) as Record<string, unknown>;

async function tFor(language: string) {
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    resources: { [language]: { translation: readLocale(language) } },
    interpolation: { escapeValue: false },
  });
  return instance.t;
}

const NOW = Date.UTC(2026, 4, 20, 12, 0, 0);
const ago = (ms: number) => NOW - ms;

describe('expiredText', () => {
  it("is the spec's English sentence, exactly", async () => {
    const t = await tFor('en');
    expect(expiredText(ago(3 * DAY_MS + 5 * HOUR_MS), NOW, 'en', t)).toBe('Sorry, this download expired 3 days ago.');
    expect(expiredText(ago(1 * DAY_MS), NOW, 'en', t)).toBe('Sorry, this download expired 1 day ago.');
    expect(expiredText(ago(2 * HOUR_MS + 59 * MINUTE_MS), NOW, 'en', t)).toBe(
      'Sorry, this download expired 2 hours ago.',
    );
    expect(expiredText(ago(30 * 1000), NOW, 'en', t)).toBe('Sorry, this download expired less than a minute ago.');
    expect(expiredText(ago(400 * DAY_MS), NOW, 'en', t)).toBe('Sorry, this download expired 1 year ago.');
    expect(expiredText(ago(3 * DAY_MS), NOW, 'en-GB', t)).toBe('Sorry, this download expired 3 days ago.');
  });

  it('says it in Spanish, French and German', async () => {
    const cases: [string, number, string][] = [
      ['es', 3 * DAY_MS, 'Lo sentimos, esta descarga caducó hace 3 días.'],
      ['es', 1 * DAY_MS, 'Lo sentimos, esta descarga caducó hace 1 día.'],
      ['es', 45 * MINUTE_MS, 'Lo sentimos, esta descarga caducó hace 45 minutos.'],
      ['es', 10 * 1000, 'Lo sentimos, esta descarga caducó hace menos de un minuto.'],
      ['fr', 3 * DAY_MS, 'Désolé, ce téléchargement a expiré il y a 3 jours.'],
      ['fr', 2 * 30 * DAY_MS, 'Désolé, ce téléchargement a expiré il y a 2 mois.'],
      ['fr', 10 * 1000, "Désolé, ce téléchargement a expiré il y a moins d'une minute."],
      ['de', 3 * DAY_MS, 'Leider ist dieser Download vor 3 Tagen abgelaufen.'],
      ['de', 1 * HOUR_MS, 'Leider ist dieser Download vor 1 Stunde abgelaufen.'],
      ['de', 10 * 1000, 'Leider ist dieser Download vor weniger als einer Minute abgelaufen.'],
    ];
    for (const [language, elapsed, text] of cases) {
      const t = await tFor(language);
      expect(expiredText(ago(elapsed), NOW, language, t).replace(/\u00a0/g, ' '), `${language} ${elapsed}`).toBe(text);
    }
  });

  it('every other UI language puts the duration into its own sentence', async () => {
    for (const language of ['zh', 'it', 'ko', 'ja']) {
      const t = await tFor(language);
      const text = expiredText(ago(3 * DAY_MS), NOW, language, t);
      expect(text, language).toMatch(/3/);
      expect(text, language).not.toMatch(/days|\{\{/);
    }
  });
});

describe('elapsedUnit', () => {
  it('counts the same whole units as the English text', () => {
    const english = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
    const samples = [
      MINUTE_MS,
      59 * MINUTE_MS,
      HOUR_MS,
      23 * HOUR_MS + 59 * MINUTE_MS,
      DAY_MS,
      29 * DAY_MS,
      30 * DAY_MS,
      364 * DAY_MS,
      365 * DAY_MS,
      800 * DAY_MS,
    ];
    for (const ms of samples) {
      const unit = elapsedUnit(ms);
      expect(unit, String(ms)).not.toBeNull();
      if (unit) expect(english.format(-unit.value, unit.unit), String(ms)).toBe(`${humanDuration(ms)} ago`);
    }
    expect(elapsedUnit(59 * 1000)).toBeNull();
  });
});

describe('download page texts', () => {
  it("are the spec's texts in English", () => {
    const en = readLocale('en') as { download: Record<string, string>; extension: Record<string, string> };
    expect(en.download.protected).toBe(TEXTS.download401);
    expect(en.download.notFound).toBe(TEXTS.download404);
    expect(en.download.networkError).toBe(TEXTS.download500);
    expect(en.download.invalidEmail).toBe(TEXTS.invalidEmail);
    expect(en.download.downloadStarted).toBe('Your download has started');
    expect(en.download.fetchingFiles).toBe("We're fetching your files...");
    expect(en.download.requestExtension).toBe('Request extension');
    expect(en.extension.extendedTitle).toBe(TEXTS.linkExtended);
    expect(en.extension.expiredTitle).toBe(TEXTS.linkExpired);
    expect(en.extension.expiredBody).toBe('Nothing to see here');
  });
});

describe('transferTitle', () => {
  it("says 'n files' in the visitor's language and keeps a file name as it is", async () => {
    const fr = await tFor('fr');
    const en = await tFor('en');
    expect(transferTitle({ title: '3 files', fileCount: 3 }, fr)).toBe('3 fichiers');
    expect(transferTitle({ title: '3 files', fileCount: 3 }, en)).toBe('3 files');
    expect(transferTitle({ title: 'report.pdf', fileCount: 1 }, fr)).toBe('report.pdf');
    // a first file that happens to be called like the count is still a file name
    expect(transferTitle({ title: '2 files', fileCount: 1 }, fr)).toBe('2 files');
  });
});
