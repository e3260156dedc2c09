/**
 * The webhooks screen's pure parts: the verification snippet it shows is the one
 * docs/webhooks.md documents (and the integration test runs), the delivery log's columns, and
 * every event type has its text in every language.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, type DeliveryView } from '@domain/webhooks-api';
import {
  SUBSCRIBABLE_EVENTS,
  anyPending,
  eventTextKey,
  lastResponseOf,
  nextRetryOf,
} from '@/shared/webhooks/delivery-format';
import { VERIFY_SNIPPET } from '@/features/webhooks/verify-snippet';
import { LANGUAGES } from '@/i18n/languages';

const ROOT = path.resolve(__dirname, '../../../..');

const delivery = (over: Partial<DeliveryView>): DeliveryView => ({
  id: 'wd_aaaaaaaaaaaaaaaaaaaa',
  eventId: 'evt_1',
  eventType: 'ping',
  status: 'pending',
  createdAt: 1,
  attempts: [],
  ...over,
});

describe('webhooks screen', () => {
  it('shows the very verification snippet docs/webhooks.md documents', () => {
    const page = readFileSync(path.join(ROOT, 'docs/webhooks.md'), 'utf8');
    const section = page.slice(page.indexOf('## Verifying a delivery'));
    expect(/```js\n([\s\S]*?)```/u.exec(section)?.[1]).toBe(VERIFY_SNIPPET);
  });

  it("offers exactly the contract's event types", () => {
    expect(SUBSCRIBABLE_EVENTS).toEqual(EVENT_TYPES);
  });

  it('reads the last response as the latest attempt: its status, else its error', () => {
    expect(lastResponseOf(delivery({}))).toEqual({ kind: 'none' });
    expect(
      lastResponseOf(
        delivery({
          attempts: [
            { at: 1, status: 500, durationMs: 3 },
            { at: 2, status: 200, durationMs: 2 },
          ],
        }),
      ),
    ).toEqual({ kind: 'status', status: 200 });
    expect(
      lastResponseOf(
        delivery({
          attempts: [
            { at: 1, status: 200, durationMs: 3 },
            { at: 2, error: 'ECONNREFUSED', durationMs: 2 },
          ],
        }),
      ),
    ).toEqual({ kind: 'error', error: 'ECONNREFUSED' });
  });

  it('shows a next retry for pending deliveries only, and polls while one is pending', () => {
    expect(nextRetryOf(delivery({ status: 'pending', nextAttemptAt: 99 }))).toBe(99);
    expect(nextRetryOf(delivery({ status: 'failed', nextAttemptAt: 99 }))).toBeUndefined();
    expect(anyPending([delivery({ status: 'delivered' }), delivery({ status: 'pending' })])).toBe(true);
    expect(anyPending([delivery({ status: 'delivered' }), delivery({ status: 'failed' })])).toBe(false);
  });

  it('has a text for every event type (and the test ping) in every language', () => {
    for (const lang of LANGUAGES) {
      const texts = JSON.parse(
        readFileSync(path.join(ROOT, `frontend/src/i18n/locales/webhooks/${lang}.json`), 'utf8'),
      ) as { webhooks: { events: Record<string, string> } };
      for (const type of [...EVENT_TYPES, 'ping' as const])
        expect(texts.webhooks.events[eventTextKey(type)], `${lang} ${type}`).toBeTruthy();
    }
  });
});
