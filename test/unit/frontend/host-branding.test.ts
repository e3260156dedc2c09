import { describe, expect, it } from 'vitest';
import { isCustomHost } from '../../../frontend/src/features/auth/host-branding';

describe('isCustomHost', () => {
  it('never asks for loopback, IP addresses or the app’s own hosts and their subdomains', () => {
    for (const host of [
      'localhost',
      '127.0.0.1',
      '10.0.0.5',
      'sendbridge.app',
      'www.sendbridge.app',
      'SendBridge.App',
    ]) {
      expect(isCustomHost(host, ['sendbridge.app']), host).toBe(false);
    }
  });

  it('asks for any other host', () => {
    expect(isCustomHost('files.acme-studio.com', ['sendbridge.app'])).toBe(true);
    expect(isCustomHost('sendbridge.app.evil.com', ['sendbridge.app'])).toBe(true);
    expect(isCustomHost('files.acme-studio.com')).toBe(true);
  });
});
