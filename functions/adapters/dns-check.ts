/**
 * DNS lookups of the domain checks: real queries over UDP (TCP on truncation) by
 * Node's resolver, to DNS_RESOLVER when set (the local DNS server of `npm start`, tests) or the
 * system's resolver in AWS. Nothing here is answered from memory.
 */
import { Resolver } from 'node:dns/promises';
import { ENV } from '../lib/env-names';

/** Answers that mean "no such record" rather than "could not ask". */
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN', 'ENONAME']);

function resolver(): Resolver {
  const r = new Resolver({ timeout: 2_000, tries: 2 });
  const server = process.env[ENV.dnsResolver];
  if (server) r.setServers([server]);
  return r;
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/u, '');

async function absentAsEmpty<T>(q: Promise<T[]>): Promise<T[]> {
  try {
    return await q;
  } catch (err) {
    if (ABSENT.has(String((err as { code?: string }).code))) return [];
    throw err;
  }
}

/** The CNAME targets of `name` (lower-case, no trailing dot); [] when it has none. */
export async function cnamesOf(name: string): Promise<string[]> {
  return (await absentAsEmpty(resolver().resolveCname(name))).map(bare);
}

/** The TXT strings of `name`, each record's chunks joined; [] when it has none. */
export async function txtsOf(name: string): Promise<string[]> {
  return (await absentAsEmpty(resolver().resolveTxt(name))).map((chunks) => chunks.join(''));
}
