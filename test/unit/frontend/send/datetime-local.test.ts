import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CustomExpiryInput } from '@/shared/send-form/components/custom-expiry-input';
import { ceilToMinute, fromLocalInputValue, toLocalInputValue } from '@/shared/send-form/datetime-local';
import { attribute } from '../../../helpers/render-html';

describe('the custom expiry picker value', () => {
  it('writes and reads local wall-clock minutes', () => {
    const ms = new Date(2025, 6, 4, 9, 5, 0).getTime();
    expect(toLocalInputValue(ms)).toBe('2025-07-04T09:05');
    expect(fromLocalInputValue('2025-07-04T09:05')).toBe(ms);
    expect(fromLocalInputValue('2025-07-04T09:05:30')).toBe(ms + 30_000);
  });

  it('drops seconds when writing', () => {
    expect(toLocalInputValue(new Date(2025, 0, 1, 23, 59, 59).getTime())).toBe('2025-01-01T23:59');
  });

  it('reads anything else as no date', () => {
    for (const value of ['', '2025-02-30T10:00', '2025-13-01T10:00', '2025-07-04', 'tomorrow'])
      expect(fromLocalInputValue(value), value).toBeNull();
  });

  it('rounds the earliest allowed time up to a whole minute', () => {
    expect(ceilToMinute(120_000)).toBe(120_000);
    expect(ceilToMinute(120_001)).toBe(180_000);
  });
});

describe('CustomExpiryInput, the picker the send form and the TransferModal share', () => {
  const now = new Date(2026, 10, 25, 10, 0, 20).getTime();
  const render = (value: number | null, invalid: boolean) =>
    renderToStaticMarkup(
      createElement(CustomExpiryInput, {
        id: 'd',
        className: 'x',
        value,
        now,
        invalid,
        onChange: () => undefined,
        testId: 'expiry-date',
      }),
    );

  it('bounds the choice from 30 minutes (whole minute) to a year ahead and shows the chosen date', () => {
    const html = render(new Date(2026, 11, 1, 8, 30).getTime(), false);
    expect(html).toContain('type="datetime-local"');
    expect(html).toContain('min="2026-11-25T10:31"');
    expect(html).toContain(`max="${toLocalInputValue(now + 31_536_000_000)}"`);
    expect(html).toContain('value="2026-12-01T08:30"');
    expect(html).toContain('data-testid="expiry-date"');
    expect(html).not.toContain('aria-invalid');
  });

  it('is empty without a date and marked invalid when told', () => {
    const html = render(null, true);
    expect(attribute(/<input[^>]*>/.exec(html)![0], 'value')).toBe('');
    expect(html).toContain('aria-invalid="true"');
  });
});
