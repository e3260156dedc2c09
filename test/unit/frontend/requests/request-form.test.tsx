import { createInstance, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { limitsFor } from '@domain/plans';
import { RequestFormPanel } from '@/features/requests/components/request-form';
import { toDateInputValue } from '@/features/requests/request-rules';
import { CATALOGUE, FALLBACK_NS } from '../../../helpers/catalogues';
import requestsEn from '@/i18n/locales/requests/en.json';
import { renderHtml } from '../../../helpers/render-html';

let i18n: I18n;
beforeAll(async () => {
  i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en',
    ns: ['translation', 'requests'],
    resources: { en: { ...CATALOGUE.en, requests: requestsEn } },
    fallbackNS: FALLBACK_NS,
    interpolation: { escapeValue: false },
  });
});

const noop = () => undefined;

/** The value attribute of the input with this test id. */
function fieldValue(html: ReturnType<typeof renderHtml>, testId: string): string | null {
  return html.attr(testId, 'value');
}

describe('the new-request form, on its first paint', () => {
  it("is prefilled from the profile's requestSettings", () => {
    const html = renderHtml(
      i18n,
      <RequestFormPanel
        role="pro"
        settings={{
          defaultMessage: 'Send me the signed copy.',
          defaultDueDays: 14,
          defaultRules: { maxBytes: 2_000_000_000, allowedTypes: ['pdf'], maxFiles: 3 },
        }}
        onCreated={noop}
        onCancel={noop}
      />,
    );
    expect(html.html).toMatch(
      /<textarea[^>]*data-testid="request-form-message"[^>]*>Send me the signed copy\.<\/textarea>/,
    );
    const due = toDateInputValue(Date.now() + 14 * 86_400_000);
    expect(fieldValue(html, 'request-form-due')).toBe(due);
    expect(fieldValue(html, 'request-form-size')).toBe('2');
    expect(fieldValue(html, 'request-form-types')).toBe('pdf');
    expect(fieldValue(html, 'request-form-files')).toBe('3');
    expect(fieldValue(html, 'request-form-title')).toBe('');
  });

  it("starts empty without settings and says the plan's limits", () => {
    const html = renderHtml(
      i18n,
      <RequestFormPanel role="free" settings={undefined} onCreated={noop} onCancel={noop} />,
    );
    expect(fieldValue(html, 'request-form-due')).toBe('');
    expect(fieldValue(html, 'request-form-size')).toBe('');
    const files = limitsFor('free').files;
    expect(html.text()).toContain(`Leave empty for your plan's limit (${files}).`);
    expect(html.text()).toContain("Leave empty for your plan's limit (3 GB).");
    // every field has its label
    for (const id of ['title', 'message', 'dueDate', 'maxSize', 'types', 'maxFiles'])
      expect(html.html).toMatch(new RegExp(`<label[^>]*for="[^"]*-${id}"`));
  });
});
