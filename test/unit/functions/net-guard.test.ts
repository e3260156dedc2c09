import { describe, expect, it } from 'vitest';
import {
  checkAddress,
  checkEndpointUrl,
  ipv4Of,
  resolveSafe,
  UnsafeAddressError,
} from '../../../functions/lib/net-guard';

const refused = (ip: string) => expect(checkAddress(ip).ok, ip).toBe(false);
const allowed = (ip: string) => expect(checkAddress(ip).ok, ip).toBe(true);

describe('the SSRF guard of webhook addresses', () => {
  it('refuses private, loopback, link-local, CGNAT, multicast, reserved and metadata IPv4 addresses', () => {
    for (const ip of [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '127.0.0.1',
      '127.255.0.9',
      '0.0.0.0',
      '169.254.169.254',
      '169.254.0.1',
      '100.64.0.1',
      '100.127.255.254',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '192.0.0.192',
      '198.18.0.1',
      '192.0.2.10',
    ]) {
      refused(ip);
    }
  });

  it('allows public IPv4 addresses, including neighbours of the refused ranges', () => {
    for (const ip of [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '172.15.255.255',
      '100.128.0.1',
      '100.63.255.255',
      '11.0.0.1',
      '169.255.0.1',
      '223.255.255.255',
    ])
      allowed(ip);
  });

  it('reads decimal, hex, octal and shortened IPv4 spellings, and refuses what they name', () => {
    expect(ipv4Of('2130706433')).toBe(0x7f000001);
    expect(ipv4Of('0x7f000001')).toBe(0x7f000001);
    expect(ipv4Of('0177.0.0.1')).toBe(0x7f000001);
    expect(ipv4Of('127.1')).toBe(0x7f000001);
    expect(ipv4Of('0xa9.0xfe.0xa9.0xfe')).toBe(0xa9fea9fe);
    expect(ipv4Of('256.0.0.1')).toBeUndefined();
    expect(ipv4Of('example.com')).toBeUndefined();
    for (const ip of [
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '127.1',
      '0xa9fea9fe',
      '2852039166',
      '0251.0376.0251.0376',
      '10.1',
      '0',
    ])
      refused(ip);
    allowed('1572395042'); // 93.184.216.34
  });

  it('refuses IPv6 loopback, unspecified, link-local, unique local (and AWS metadata fd00:ec2::254), site-local, multicast and documentation', () => {
    for (const ip of [
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd00:ec2::254',
      'fec0::1',
      'ff02::1',
      '2001:db8::1',
      '100::1',
      '[::1]',
    ])
      refused(ip);
  });

  it('refuses IPv4 addresses carried in IPv6: mapped, compatible, NAT64 and 6to4 forms', () => {
    for (const ip of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::ffff:10.0.0.1',
      '::127.0.0.1',
      '64:ff9b::10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
      '2002:7f00:1::',
      '::ffff:0:192.168.0.1',
    ])
      refused(ip);
    for (const ip of ['::ffff:93.184.216.34', '64:ff9b::8.8.8.8', '2002:5db8:d822::1']) allowed(ip);
  });

  it('allows global IPv6 unicast', () => {
    for (const ip of ['2606:4700:4700::1111', '2a00:1450:4001:82a::200e']) allowed(ip);
  });

  it('allows loopback, and only loopback, in local mode', () => {
    expect(checkAddress('127.0.0.1', { allowLoopback: true }).ok).toBe(true);
    expect(checkAddress('::1', { allowLoopback: true }).ok).toBe(true);
    expect(checkAddress('::ffff:127.0.0.1', { allowLoopback: true }).ok).toBe(true);
    expect(checkAddress('10.0.0.1', { allowLoopback: true }).ok).toBe(false);
    expect(checkAddress('169.254.169.254', { allowLoopback: true }).ok).toBe(false);
  });

  it('resolves names and refuses them when any answer is refused (no rebinding lottery), pinning the first good one', async () => {
    const lookup = (answers: string[]) => async () =>
      answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    await expect(resolveSafe('hooks.example.com', lookup(['93.184.216.34', '2606:4700::1']))).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
    await expect(resolveSafe('hooks.example.com', lookup(['93.184.216.34', '10.0.0.5']))).rejects.toBeInstanceOf(
      UnsafeAddressError,
    );
    await expect(resolveSafe('rebind.example.com', lookup(['::ffff:127.0.0.1']))).rejects.toBeInstanceOf(
      UnsafeAddressError,
    );
    await expect(resolveSafe('empty.example.com', lookup([]))).rejects.toBeInstanceOf(UnsafeAddressError);
    // a literal is never looked up
    await expect(resolveSafe('[::1]', async () => [{ address: '8.8.8.8', family: 4 }])).rejects.toBeInstanceOf(
      UnsafeAddressError,
    );
  });

  it('checks the endpoint URL when it is saved: https only, http to loopback in local mode only', () => {
    expect(checkEndpointUrl('https://hooks.example.com/sb', { localMode: false }).ok).toBe(true);
    const cases: [string, boolean, string][] = [
      ['http://hooks.example.com/sb', false, 'webhook_url_invalid'],
      ['http://127.0.0.1:9000/hook', false, 'webhook_url_invalid'],
      ['http://hooks.example.com/sb', true, 'webhook_url_invalid'],
      ['http://10.0.0.1/hook', true, 'webhook_url_invalid'],
      ['https://127.0.0.1/hook', false, 'webhook_url_not_allowed'],
      ['https://2130706433/hook', false, 'webhook_url_not_allowed'],
      ['https://0x7f.1/hook', false, 'webhook_url_not_allowed'],
      ['https://[::ffff:169.254.169.254]/', false, 'webhook_url_not_allowed'],
      ['https://localhost/hook', false, 'webhook_url_not_allowed'],
      ['https://metadata.google.internal/', false, 'webhook_url_not_allowed'],
      ['https://intranet/hook', false, 'webhook_url_invalid'],
      ['gopher://hooks.example.com/', false, 'webhook_url_invalid'],
      ['https://a:b@hooks.example.com/', false, 'webhook_url_invalid'],
    ];
    for (const [url, localMode, code] of cases) {
      const v = checkEndpointUrl(url, { localMode });
      expect(v.ok, url).toBe(false);
      if (!v.ok) expect(v.code, url).toBe(code);
    }
    expect(checkEndpointUrl('http://127.0.0.1:9000/hook', { localMode: true }).ok).toBe(true);
    expect(checkEndpointUrl('http://[::1]:9000/hook', { localMode: true }).ok).toBe(true);
    expect(checkEndpointUrl('http://localhost:9000/hook', { localMode: true }).ok).toBe(true);
  });
});
