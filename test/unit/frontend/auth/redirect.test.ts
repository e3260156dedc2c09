import { describe, expect, it } from 'vitest';
import { safeRedirect } from '@/features/auth/redirect';

describe('login redirect (open-redirect safe)', () => {
  it('keeps paths of this app with their query and hash', () => {
    expect(safeRedirect('/dash')).toBe('/dash');
    expect(safeRedirect('/dash/transfers/abc?filter=active')).toBe('/dash/transfers/abc?filter=active');
    expect(safeRedirect('/dash/account?tab=1#plan')).toBe('/dash/account?tab=1#plan');
  });

  it('normalises dot segments inside the app', () => {
    expect(safeRedirect('/dash/../pricing')).toBe('/pricing');
  });

  it('refuses other origins in every spelling', () => {
    for (const raw of [
      'https://evil.example/dash',
      '//evil.example/dash',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'evil.example/dash',
      '/\t/evil.example',
      '/\n/evil.example',
      ' //evil.example',
    ]) {
      expect(safeRedirect(raw), JSON.stringify(raw)).toBeNull();
    }
  });

  it('refuses nothing, blanks and the account pages themselves (no loops)', () => {
    for (const raw of [
      null,
      undefined,
      '',
      '   ',
      '/login',
      '/login?redirect=%2Fdash',
      '/signup/login',
      '/register?step=2',
      '/updatepassword?t=x',
    ]) {
      expect(safeRedirect(raw), String(raw)).toBeNull();
    }
  });
});
