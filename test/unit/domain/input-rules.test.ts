import { regexes } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import {
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  isValidEmail,
  normaliseEmail,
  parseRecipientInput,
} from '../../../functions/domain/input-rules';
import { emailSchema } from '../../../functions/domain/validation';

/** What the schema the API applies says about an address: its normal form, or null when refused. */
function bySchema(raw: string): string | null {
  const parsed = emailSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** A small deterministic generator (mulberry32), so a disagreement names a reproducible address. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EDGE_CASES = [
  '',
  ' ',
  'a@b.co',
  'A@B.CO',
  '  Ann.Lee@Example.COM ',
  '\u00a0ann@example.com\u2028',
  '\ufeffann@example.com',
  'ann@example',
  'ann@example.c',
  'ann@example.c0m',
  'ann@-example.com',
  'ann@example-.com',
  'ann@exa_mple.com',
  'ann@@example.com',
  'ann@example..com',
  '.ann@example.com',
  'ann.@example.com',
  'an..n@example.com',
  "o'brien@example.ie",
  'ann+tag@example.com',
  "ann'@example.com",
  'ann-@example.com',
  '_@example.com',
  '@example.com',
  'ann@',
  'ann example@example.com',
  'ann@exam ple.com',
  '"ann"@example.com',
  'ann@[127.0.0.1]',
  'ann@xn--bcher-kva.example',
  'ann@b\u00fccher.example',
  'j\u00f6rg@example.com',
  '\u212aelvin@example.com', // KELVIN SIGN lower-cases to an ASCII k
  '\u0130stanbul@example.com', // dotted capital I lower-cases to two characters
  'ann@example.com\n',
  '\tann@example.com',
  'ann@example.com.',
  'ann!@example.com',
  'ann#x@example.com',
  'ann\ud83d\ude00@example.com',
  'ann\ud800@example.com',
  `${'a'.repeat(64)}@${'b'.repeat(185)}.com`, // 254 characters
  `${'a'.repeat(64)}@${'b'.repeat(186)}.com`, // 255
  ` ${'a'.repeat(64)}@${'b'.repeat(185)}.com `, // 254 once trimmed
  `${'\u212a'.repeat(64)}@${'b'.repeat(185)}.com`,
  `${'a'.repeat(63)}\ud83d\ude00@${'b'.repeat(184)}.com`, // 255 code units, 254 code points
  `${'a'.repeat(64)}\ud83d\ude00@${'b'.repeat(184)}.com`,
];

const LOCAL = 'abcXYZ019._\'+-!#$%&*=?^`{|}~"() \u212a\u00e9\u0130';
const DOMAIN = 'abcXYZ019-._ \u00fc';
const NOISE = ['', '', '', ' ', '\u00a0', '\u2028', '\ufeff', '\t', '\ud83d\ude00', '\ud800', '@', '..'];

/** Addresses near the pattern's edges: valid ones, and ones a character or two away from valid. */
function generated(count: number): string[] {
  const next = random(7);
  const pick = <T>(list: readonly T[] | string): T | string => list[Math.floor(next() * list.length)]!;
  const run = (alphabet: string, min: number, max: number) =>
    Array.from({ length: min + Math.floor(next() * (max - min + 1)) }, () => pick(alphabet)).join('');
  const plain = (min: number, max: number) => run('abcdefghijklmnopqrstuvwxyz0123456789', min, max);
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const valid = `${plain(1, 12)}${next() < 0.3 ? `.${plain(1, 6)}` : ''}@${plain(1, 10)}.${next() < 0.3 ? `${plain(1, 8)}.` : ''}${run('abcdefghijklmnopqrstuvwxyzABC', 2, 6)}`;
    const shape = next();
    let address: string;
    if (shape < 0.35) address = valid;
    else if (shape < 0.7) {
      // one or two characters of the valid address replaced, inserted or removed
      address = valid;
      for (let edits = 1 + Math.floor(next() * 2); edits > 0; edits -= 1) {
        const at = Math.floor(next() * (address.length + 1));
        const kind = next();
        const char = String(pick(next() < 0.5 ? LOCAL : DOMAIN));
        address =
          kind < 0.4
            ? address.slice(0, at) + char + address.slice(at + 1)
            : kind < 0.8
              ? address.slice(0, at) + char + address.slice(at)
              : address.slice(0, at) + address.slice(at + 1);
      }
    } else if (shape < 0.9) address = `${run(LOCAL, 0, 10)}@${run(DOMAIN, 0, 12)}.${run('abcdeABC1-', 0, 4)}`;
    else {
      // around the length limit
      const local = plain(1, 64);
      const domain = `${plain(EMAIL_MAX_LENGTH - local.length - 8, EMAIL_MAX_LENGTH - local.length - 3)}.com`;
      address = `${local}@${domain}`;
    }
    out.push(`${String(pick(NOISE))}${address}${String(pick(NOISE))}`);
  }
  return out;
}

describe('the e-mail check without zod (input-rules.ts)', () => {
  it("uses zod's own e-mail pattern, so a zod release that changes it fails here", () => {
    expect(EMAIL_PATTERN.source).toBe(regexes.email.source);
    expect(EMAIL_PATTERN.flags).toBe(regexes.email.flags);
  });

  it('agrees with emailSchema on every edge case', () => {
    for (const raw of EDGE_CASES) expect(normaliseEmail(raw), JSON.stringify(raw)).toBe(bySchema(raw));
  });

  it('agrees with emailSchema on 20,000 generated addresses, valid and not', () => {
    const addresses = generated(20_000);
    let accepted = 0;
    for (const raw of addresses) {
      const want = bySchema(raw);
      expect(normaliseEmail(raw), JSON.stringify(raw)).toBe(want);
      expect(isValidEmail(raw)).toBe(want !== null);
      if (want !== null) accepted += 1;
    }
    // both answers are well represented, or the agreement would prove little
    expect(accepted).toBeGreaterThan(4_000);
    expect(addresses.length - accepted).toBeGreaterThan(4_000);
  }, 30_000); // 20,000 addresses through two parsers: seconds on a loaded machine

  it('recipient chips take exactly the addresses the schema takes, in its normal form', () => {
    const addresses = generated(2_000).filter((raw) => raw !== '' && !/[;,\s]/u.test(raw));
    const { added, invalid } = parseRecipientInput(addresses.join(';'));
    const wanted = [...new Set(addresses.map(bySchema).filter((e): e is string => e !== null))];
    expect(added).toEqual(wanted);
    expect(invalid).toEqual(addresses.filter((raw) => bySchema(raw) === null));
  });
});
