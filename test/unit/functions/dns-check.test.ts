/**
 * The domain checker against the local DNS server (scripts/local/dns-server.ts) on a free port:
 * real queries over UDP through Node's resolver, nothing stubbed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type LocalDnsServer } from '../../../scripts/local/dns-server';
import { cnamesOf, txtsOf } from '../../../functions/adapters/dns-check';
import { recordProblems } from '../../../functions/services/domains';
import { ENV } from '../../../functions/lib/env-names';

let dns: LocalDnsServer;
let dir: string;
const saved = { resolver: process.env[ENV.dnsResolver], target: process.env[ENV.customDomainTarget] };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-dns-'));
  dns = await startDnsServer({ port: 0, recordsFile: path.join(dir, 'records.json') });
  process.env[ENV.dnsResolver] = dns.address;
  process.env[ENV.customDomainTarget] = 'edge.sendbridge.test';
});

afterAll(async () => {
  await dns?.close();
  rmSync(dir, { recursive: true, force: true });
  for (const [k, v] of [
    [ENV.dnsResolver, saved.resolver],
    [ENV.customDomainTarget, saved.target],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('DNS lookups of the domain checks', () => {
  it('reads CNAMEs and TXT records, and an absent name or type as none', async () => {
    dns.add({ name: 'Files.Example.test', type: 'CNAME', value: 'Edge.SendBridge.test.' });
    dns.add({ name: 'txt.example.test', type: 'TXT', value: 'a=1' });
    dns.add({ name: 'txt.example.test', type: 'TXT', value: 'b=2' });
    expect(await cnamesOf('files.example.test')).toEqual(['edge.sendbridge.test']);
    expect((await txtsOf('txt.example.test')).sort()).toEqual(['a=1', 'b=2']);
    expect(await cnamesOf('nowhere.example.test')).toEqual([]);
    expect(await txtsOf('files.example.test')).toEqual([]);
    expect(await cnamesOf('txt.example.test')).toEqual([]);
  });

  it('names each missing or wrong record of a claim', async () => {
    const host = 'share.acme.test';
    expect(await recordProblems(host, 'tok')).toEqual([
      { record: 'cname', state: 'missing' },
      { record: 'txt', state: 'missing' },
    ]);
    dns.add({ name: host, type: 'CNAME', value: 'elsewhere.example.net' });
    dns.add({ name: `_sendbridge.${host}`, type: 'TXT', value: 'sendbridge-verify=other' });
    dns.add({ name: `_sendbridge.${host}`, type: 'TXT', value: 'google-site-verification=unrelated' });
    expect(await recordProblems(host, 'tok')).toEqual([
      { record: 'cname', state: 'wrong', found: 'elsewhere.example.net' },
      { record: 'txt', state: 'wrong', found: 'sendbridge-verify=other' },
    ]);
    dns.add({ name: host, type: 'CNAME', value: 'edge.sendbridge.test' });
    dns.add({ name: `_sendbridge.${host}`, type: 'TXT', value: 'sendbridge-verify=tok' });
    expect(await recordProblems(host, 'tok')).toEqual([]);
    expect(dns.remove(host, 'CNAME')).toBe(1);
    expect(await recordProblems(host, 'tok')).toEqual([{ record: 'cname', state: 'missing' }]);
  });
});
