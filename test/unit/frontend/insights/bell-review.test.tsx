import { createInstance, type i18n as I18n } from 'i18next';
import { MemoryRouter } from 'react-router';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { NotificationView } from '@domain/dashboard-api';
import { BellList } from '@/features/notifications/components/bell-list';
import insightsEn from '@/i18n/locales/insights/en.json';
import requestsEn from '@/i18n/locales/requests/en.json';
import reviewEn from '@/i18n/locales/sender-review/en.json';
import { CATALOGUE, FALLBACK_NS } from '../../../helpers/catalogues';
import { renderHtml } from '../../../helpers/render-html';

let i18n: I18n;
beforeAll(async () => {
  i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en',
    ns: ['translation', 'insights', 'requests', 'sender-review'],
    resources: { en: { ...CATALOGUE.en, insights: insightsEn, requests: requestsEn, 'sender-review': reviewEn } },
    fallbackNS: FALLBACK_NS,
    interpolation: { escapeValue: false },
  });
});

const review = (counts: NonNullable<NotificationView['review']>): NotificationView => ({
  _id: '00000000-0000-4000-8000-000000000001',
  slug: 'rev0001',
  read: false,
  dlDate: Date.now() - 60_000,
  dlCountryCode: 'XX',
  fileName: 'photo.jpg',
  dlOrigin: 'file',
  kind: 'review',
  review: counts,
});

function render(n: NotificationView) {
  return renderHtml(
    i18n,
    <MemoryRouter>
      <BellList
        notifications={[n]}
        now={Date.now()}
        lng="en"
        describe={() => ({ country: 'Unknown', who: '' })}
        onOpen={() => undefined}
      />
    </MemoryRouter>,
  );
}

describe('the bell’s review items', () => {
  it('name the transfer and count what happened, linking to the modal’s review', () => {
    const doc = render(review({ comments: 2, approvals: 1, changesRequested: 0 }));
    expect(doc.attr('bell-item', 'data-kind')).toBe('review');
    expect(doc.attr('bell-item', 'href')).toBe('/dash/transfers/rev0001#review');
    expect(doc.text()).toContain('Review of photo.jpg');
    expect(doc.text()).toContain('2 new comments · 1 approval');
    expect(doc.text()).not.toContain('Unknown');
  });

  it('say a request for changes', () => {
    expect(render(review({ comments: 0, approvals: 0, changesRequested: 1 })).text()).toContain(
      '1 request for changes',
    );
  });
});
