import { describe, expect, it } from 'vitest';
import { avatarColourOf, avatarHueOf } from '../../../frontend/src/components/avatar-colour';
import { initialsOf } from '../../../frontend/src/lib/session/user-display';
import { contrastRatio } from '../../../functions/domain/branding';

/** `hsl(h s% l%)` -> `#rrggbb` (CSS Color 4's conversion). */
function hslToHex(css: string): string {
  const [h, s, l] = css.match(/[\d.]+/gu)!.map(Number) as [number, number, number];
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const c = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

describe('avatar colour', () => {
  it('is the same for the same seed and spreads over hues', () => {
    expect(avatarColourOf('user-123')).toBe(avatarColourOf('user-123'));
    const hues = new Set(Array.from({ length: 50 }, (_, i) => avatarHueOf(`user-${i}@example.com`)));
    expect(hues.size).toBeGreaterThan(40);
  });

  it('keeps white initials readable (WCAG AA) on every hue', () => {
    for (let h = 0; h < 360; h += 1) {
      const hex = hslToHex(`hsl(${h} 60% 30%)`);
      expect(contrastRatio(hex, '#ffffff'), `hue ${h} ${hex}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(avatarColourOf('x')).toMatch(/^hsl\(\d+ 60% 30%\)$/u);
  });
});

describe('initials', () => {
  it('takes the first and last word of the name, else the first letter of the email', () => {
    expect(initialsOf({ fullName: 'Alice Mary Smith', email: 'a@x.com' })).toBe('AS');
    expect(initialsOf({ fullName: 'bob', email: 'b@x.com' })).toBe('B');
    expect(initialsOf({ fullName: '', email: 'carol@x.com' })).toBe('C');
    expect(initialsOf({ fullName: '  ', email: 'émile@x.com' })).toBe('É');
  });
});
