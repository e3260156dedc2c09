/**
 * SSRF guard of webhook endpoints: which addresses a delivery may connect to.
 * Outside local mode no private, loopback, link-local, CGNAT, multicast, reserved or metadata
 * address is reachable, in IPv4 or IPv6, including IPv4-mapped, IPv4-compatible, NAT64 and
 * 6to4 forms that carry an IPv4 address inside. Host names are resolved at delivery and every
 * answer must pass (one bad answer refuses the lot: no DNS rebinding lottery); the connection
 * then goes to the checked address (adapters/webhook-http.ts pins it).
 *
 * IPv4 literals in other spellings (decimal `2130706433`, hex `0x7f.1`, octal `0177.0.0.1`,
 * short `127.1`) are what URL parsers and `inet_aton` accept; `ipv4Of` reads them all, so the
 * check holds whichever library later parses the host.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** [first address, prefix length] of every IPv4 range refused outside local mode. */
const V4_BLOCKED: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (incl. 192.0.0.192 Oracle metadata)
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const LOOPBACK_V4: readonly [string, number] = ['127.0.0.0', 8];

function v4ToInt(dotted: string): number {
  return dotted.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inV4Range(ip: number, [base, bits]: readonly [string, number]): boolean {
  if (bits === 0) return true;
  const size = 2 ** (32 - bits);
  const start = v4ToInt(base);
  return ip >= start && ip < start + size;
}

/**
 * An IPv4 address in any spelling `inet_aton` accepts (1 to 4 parts, each decimal, 0x-hex or
 * 0-octal), as a 32-bit number; undefined for anything else.
 */
export function ipv4Of(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length < 1 || parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/iu.test(p)) n = p.length === 2 ? 0 : Number.parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/u.test(p)) n = Number.parseInt(p, 8);
    else if (/^(0|[1-9][0-9]*)$/u.test(p)) n = Number(p);
    else return undefined;
    if (!Number.isSafeInteger(n)) return undefined;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255)) return undefined;
  const lastMax = 2 ** (8 * (4 - nums.length));
  if (last >= lastMax) return undefined;
  return nums.reduce((acc, n, i) => acc + n * 2 ** (8 * (3 - i)), 0) + last;
}

function intToV4(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

/** An IPv6 address as 8 sixteen-bit groups (embedded dotted IPv4 and zone ids handled); undefined otherwise. */
export function ipv6Groups(text: string): number[] | undefined {
  let s = text.replace(/^\[|\]$/gu, '');
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!isIPv6(s)) return undefined;
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  const lastPart = s.slice(lastColon + 1);
  if (lastPart.includes('.')) {
    const v4 = v4ToInt(lastPart);
    tail = [Math.floor(v4 / 65536), v4 % 65536];
    s = `${s.slice(0, lastColon + 1)}${tail.length ? '0:0' : ''}`;
  }
  const [head, rest] = s.includes('::') ? (s.split('::') as [string, string]) : [s, undefined];
  const h = head ? head.split(':').map((g) => Number.parseInt(g, 16)) : [];
  const r = rest !== undefined && rest !== '' ? rest.split(':').map((g) => Number.parseInt(g, 16)) : [];
  const groups = rest === undefined ? h : [...h, ...Array<number>(8 - h.length - r.length).fill(0), ...r];
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return undefined;
  if (tail.length) {
    groups[6] = tail[0]!;
    groups[7] = tail[1]!;
  }
  return groups;
}

export type AddressVerdict =
  | { readonly ok: true; readonly family: 4 | 6; readonly address: string }
  | { readonly ok: false; readonly reason: string };

function v4Verdict(n: number, allowLoopback: boolean, shown: string): AddressVerdict {
  if (allowLoopback && inV4Range(n, LOOPBACK_V4)) return { ok: true, family: 4, address: intToV4(n) };
  const hit = V4_BLOCKED.find((r) => inV4Range(n, r));
  if (hit) return { ok: false, reason: `${shown} is in ${hit[0]}/${hit[1]}` };
  return { ok: true, family: 4, address: intToV4(n) };
}

/**
 * Whether a delivery may connect to this IP address (IPv4 in any spelling, or IPv6).
 * `allowLoopback`: local mode, where 127.0.0.0/8 and ::1 (and ::ffff:127.x) are allowed.
 */
export function checkAddress(ip: string, opts: { allowLoopback?: boolean } = {}): AddressVerdict {
  const allowLoopback = opts.allowLoopback === true;
  const v4 = ipv4Of(ip);
  if (v4 !== undefined) return v4Verdict(v4, allowLoopback, ip);
  const g = ipv6Groups(ip);
  if (!g) return { ok: false, reason: `${ip} is not an IP address` };
  const is = (prefix: readonly number[], bits: number) => {
    for (let i = 0; i < 8 && bits > 0; i++, bits -= 16) {
      const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
      if ((g[i]! & mask) !== ((prefix[i] ?? 0) & mask)) return false;
    }
    return true;
  };
  const embedded = (hi: number, lo: number) => g[hi]! * 65536 + g[lo]!;
  const shown = ip;
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), ::ffff:0:a.b.c.d (SIIT): the IPv4 rules
  if (is([0, 0, 0, 0, 0, 0xffff], 96) || is([0, 0, 0, 0, 0xffff, 0], 96))
    return v4Verdict(embedded(6, 7), allowLoopback, shown);
  if (g.every((x) => x === 0)) return { ok: false, reason: `${shown} is the unspecified address` };
  if (is([0, 0, 0, 0, 0, 0, 0, 1], 128))
    return allowLoopback ? { ok: true, family: 6, address: '::1' } : { ok: false, reason: `${shown} is loopback` };
  if (is([0, 0, 0, 0, 0, 0], 96)) return { ok: false, reason: `${shown} is an IPv4-compatible address` };
  // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) carry an IPv4 address: refused like it
  if (is([0x64, 0xff9b, 0, 0, 0, 0], 96)) {
    const inner = v4Verdict(embedded(6, 7), false, shown);
    if (!inner.ok) return inner;
  }
  if (is([0x64, 0xff9b, 1], 48)) return { ok: false, reason: `${shown} is in 64:ff9b:1::/48 (local NAT64)` };
  // 6to4 2002:AABB:CCDD::/48 embeds AABB.CCDD
  if (is([0x2002], 16)) {
    const inner = v4Verdict(embedded(1, 2), false, shown);
    if (!inner.ok) return inner;
  }
  const blocked6: readonly (readonly [readonly number[], number, string])[] = [
    [[0x100], 64, 'discard-only'],
    [[0x2001, 0], 32, 'Teredo'],
    [[0x2001, 0x10], 28, 'ORCHID'],
    [[0x2001, 0x20], 28, 'ORCHIDv2'],
    [[0x2001, 0xdb8], 32, 'documentation'],
    [[0x3fff], 20, 'documentation'],
    [[0xfc00], 7, 'unique local (incl. fd00:ec2::254 metadata)'],
    [[0xfe80], 10, 'link-local'],
    [[0xfec0], 10, 'site-local'],
    [[0xff00], 8, 'multicast'],
  ];
  for (const [prefix, bits, name] of blocked6)
    if (is(prefix, bits)) return { ok: false, reason: `${shown} is ${name}` };
  // Anything outside 2000::/3 (global unicast) is reserved
  if (!is([0x2000], 3) && !is([0x64, 0xff9b], 32)) return { ok: false, reason: `${shown} is outside global unicast` };
  return { ok: true, family: 6, address: g.map((x) => x.toString(16)).join(':') };
}

export type Lookup = (host: string) => Promise<readonly { address: string; family: number }[]>;

export class UnsafeAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeAddressError';
  }
}

/** The IP literal of a URL host (`[::1]` unbracketed), or undefined for a name. */
export function ipLiteralOf(host: string): string | undefined {
  const bare = host.replace(/^\[|\]$/gu, '');
  if (isIPv6(bare) || isIPv4(bare) || ipv4Of(bare) !== undefined) return bare;
  return undefined;
}

/**
 * The address a delivery to `host` connects to: the literal itself, or the first answer of
 * `lookup` when every answer passes. Throws UnsafeAddressError otherwise.
 */
export async function resolveSafe(
  host: string,
  lookup: Lookup,
  opts: { allowLoopback?: boolean } = {},
): Promise<{ address: string; family: 4 | 6 }> {
  const literal = ipLiteralOf(host);
  const answers = literal ? [{ address: literal }] : await lookup(host);
  if (answers.length === 0) throw new UnsafeAddressError(`${host} has no address`);
  let first: { address: string; family: 4 | 6 } | undefined;
  for (const a of answers) {
    const v = checkAddress(a.address, opts);
    if (!v.ok) throw new UnsafeAddressError(`${host}: ${v.reason}`);
    first ??= { address: v.address, family: v.family };
  }
  return first!;
}

/** Names that always mean this machine or the cloud's metadata service, refused before any lookup. */
const REFUSED_NAMES =
  /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback|metadata|metadata\.google\.internal|instance-data(\.ec2\.internal)?)\.?$|\.localhost\.?$|\.internal\.?$/iu;

export type UrlVerdict =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly code: 'webhook_url_invalid' | 'webhook_url_not_allowed'; readonly reason: string };

/**
 * The shape check of an endpoint URL when it is saved (the address check repeats at every
 * delivery, after DNS): https only (http to a loopback address in local mode), no credentials,
 * no fragment, and no literal or well-known name of a refused address.
 */
export function checkEndpointUrl(raw: string, opts: { localMode: boolean }): UrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, code: 'webhook_url_invalid', reason: 'not a URL' };
  }
  if (url.username || url.password) return { ok: false, code: 'webhook_url_invalid', reason: 'credentials in the URL' };
  if (url.hash) return { ok: false, code: 'webhook_url_invalid', reason: 'a fragment in the URL' };
  const host = url.hostname;
  const literal = ipLiteralOf(host);
  const loopbackHost =
    literal !== undefined &&
    checkAddress(literal, { allowLoopback: true }).ok &&
    !checkAddress(literal).ok &&
    isLoopback(literal);
  if (url.protocol === 'http:') {
    if (!(opts.localMode && (loopbackHost || /^localhost$/iu.test(host)))) {
      return {
        ok: false,
        code: 'webhook_url_invalid',
        reason: opts.localMode ? 'http is allowed for loopback addresses only' : 'https only',
      };
    }
  } else if (url.protocol !== 'https:') {
    return { ok: false, code: 'webhook_url_invalid', reason: 'https only' };
  }
  if (literal !== undefined) {
    const v = checkAddress(literal, { allowLoopback: opts.localMode });
    if (!v.ok) return { ok: false, code: 'webhook_url_not_allowed', reason: v.reason };
  } else if (REFUSED_NAMES.test(host) && !(opts.localMode && /^localhost$/iu.test(host))) {
    return { ok: false, code: 'webhook_url_not_allowed', reason: `${host} names this machine or a metadata service` };
  } else if (!host.includes('.') && !(opts.localMode && /^localhost$/iu.test(host))) {
    return { ok: false, code: 'webhook_url_invalid', reason: 'the host must be a fully qualified name' };
  }
  return { ok: true, url };
}

function isLoopback(ip: string): boolean {
  const v4 = ipv4Of(ip);
  if (v4 !== undefined) return inV4Range(v4, LOOPBACK_V4);
  const g = ipv6Groups(ip);
  if (!g) return false;
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true;
  return g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff && inV4Range(g[6]! * 65536 + g[7]!, LOOPBACK_V4);
}
