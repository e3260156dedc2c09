import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BLOCK_REASONS } from '../../../functions/domain/blocking';
import { CARD_ERROR_CODES } from '../../../functions/services/payment-errors';
import { PROBLEM_CODES, ZOD_ISSUE_CODES, problemText, type ProblemCode } from '../../../functions/domain/validation';
import { ERROR_KEYS, PROBLEM_KEYS, errorKeyOf, errorTextOf } from '../../../frontend/src/i18n/error-keys';
import { EN_TEXTS as en } from '../../helpers/catalogues';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const doc = readFileSync(join(root, 'docs/error-codes.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The helpers of functions/lib/errors.ts and the status each gives. */
const HELPER_STATUS: Record<string, number> = {
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  gone: 410,
  payloadTooLarge: 413,
};
/** Helpers called without a code, and the code they give. */
const DEFAULTS: [RegExp, string, number][] = [
  [/\bunauthorized\(\s*\)/u, 'unauthorized', 401],
  [/\bforbidden\(\s*\)/u, 'forbidden', 403],
  [/\bnotFound\(\s*\)/u, 'not_found', 404],
  [/\bunsupportedMediaType\(/u, 'unsupported_media_type', 415],
  [/\btooManyRequests\(/u, 'rate_limited', 429],
];
/** Files that throw with a code computed at run time, and the codes it can take. */
const DYNAMIC: Record<string, [string, number][]> = {
  'functions/services/limits.ts': BLOCK_REASONS.map((r) => [r, 403]),
  // a card error answers 402 with Stripe's card error code
  'functions/services/payment-errors.ts': CARD_ERROR_CODES.map((c) => [c, 402]),
  // problemsError: a refused send speaks with its first problem's code (second table)
  'functions/lib/errors.ts': [],
  // resetUpload: a file whose stored object is wrong starts over (a background reset is told by the next complete call)
  'functions/services/completion.ts': [
    ['upload_reset', 409],
    ['size_mismatch', 409],
  ],
  // a refused host name answers with checkCustomHost's code
  'functions/services/domains.ts': (
    [
      'domain_invalid',
      'domain_ip',
      'domain_wildcard',
      'domain_port_or_path',
      'domain_too_long',
      'domain_product',
    ] as const
  ).map((c) => [c, 400]),
};

/** Every (code, status) that functions/ can throw, read from the source. */
function thrownCodes(): Map<string, number> {
  const found = new Map<string, number>();
  const add = (code: string, status: number, where: string) => {
    const seen = found.get(code);
    if (seen !== undefined && seen !== status)
      throw new Error(`${code} is thrown with ${seen} and ${status} (${where})`);
    found.set(code, status);
  };
  for (const file of sourceFiles(join(root, 'functions'))) {
    const rel = file.slice(root.length);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /\b(badRequest|unauthorized|forbidden|notFound|conflict|gone|payloadTooLarge)\(\s*'([a-z0-9_]+)'/gu,
    ))
      add(m[2]!, HELPER_STATUS[m[1]!]!, rel);
    for (const m of text.matchAll(/new (?:HttpError|ValidationError)\(\s*([^,)]*),\s*([^,)]*)/gu)) {
      const [, first = '', second = ''] = m;
      const status = /^\d{3}$/u.exec(first.trim());
      const code = /^'([a-z0-9_]+)'$/u.exec(second.trim());
      if (status && code) add(code[1]!, Number(status[0]), rel);
      else if (rel === 'functions/lib/http.ts' && /^'([a-z0-9_]+)'$/u.test(first.trim()))
        add(first.trim().slice(1, -1), 400, rel);
      else if (!(rel in DYNAMIC))
        throw new Error(`${rel}: an HttpError with a computed code (${m[0]}); list its codes in DYNAMIC`);
    }
    for (const [code, status] of DYNAMIC[rel] ?? []) add(code, status, rel);
    if (rel !== 'functions/lib/errors.ts')
      for (const [call, code, status] of DEFAULTS) if (call.test(text)) add(code, status, rel);
  }
  return found;
}

/** Rows `| \`code\` | status | …` of the first table. */
function documentedErrors(): Map<string, number> {
  const table = doc.slice(doc.indexOf('## Errors'), doc.indexOf('## Validation problem codes'));
  return new Map([...table.matchAll(/^\| `([a-z0-9_]+)` \| (\d{3}) \|/gmu)].map((m) => [m[1]!, Number(m[2])]));
}

function documentedProblems(): Map<string, string> {
  const table = doc.slice(doc.indexOf('## Validation problem codes'));
  return new Map([...table.matchAll(/^\| `([a-z0-9_]+)` \| [^|]+ \| (.+) \|$/gmu)].map((m) => [m[1]!, m[2]!.trim()]));
}

describe('error codes (docs/error-codes.md)', () => {
  const thrown = thrownCodes();

  it('finds the codes the handlers throw', () => {
    for (const code of [
      'email_taken',
      'invalid_request',
      'internal_error',
      'wrong_password',
      'storage_full',
      'rate_limited',
    ])
      expect(thrown.has(code), code).toBe(true);
  });

  it('lists every code thrown in functions/ with its status, and no other', () => {
    const documented = documentedErrors();
    const missing = [...thrown]
      .filter(([code, status]) => documented.get(code) !== status)
      .map(([c, s]) => `${c} ${s}`);
    const stale = [...documented.keys()].filter((code) => !thrown.has(code));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  it('codes are snake_case', () => {
    for (const code of [...thrown.keys(), ...PROBLEM_CODES, ...ZOD_ISSUE_CODES])
      expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/u);
  });

  it('lists every validation problem code with its English text', () => {
    const documented = documentedProblems();
    expect([...documented.keys()].sort()).toEqual([...PROBLEM_CODES, ...ZOD_ISSUE_CODES].sort());
    const parametrised: readonly ProblemCode[] = ['too_many_recipients', 'file_not_allowed'];
    for (const code of PROBLEM_CODES.filter((c) => !parametrised.includes(c)))
      expect(documented.get(code), code).toBe(problemText(code));
  });
});

describe('the app maps every code a user can meet to a translated text', () => {
  const at = (key: string) =>
    key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], en);
  /** a plain key, or a plural one by its base */
  const lookup = (key: string) => at(key) ?? at(`${key}_other`);

  it('every 4xx code and every validation problem code has an i18n key that exists in en', () => {
    const codes = [...thrownCodes()].filter(([, status]) => status < 500).map(([code]) => code);
    for (const code of codes)
      expect(typeof lookup(ERROR_KEYS[code] ?? ''), `${code} -> ${ERROR_KEYS[code]}`).toBe('string');
    for (const code of PROBLEM_CODES)
      expect(typeof lookup(PROBLEM_KEYS[code] ?? ''), `${code} -> ${PROBLEM_KEYS[code]}`).toBe('string');
  });

  it('maps no key that en lacks, and unknown codes to the generic text', () => {
    for (const [code, key] of [...Object.entries(ERROR_KEYS), ...Object.entries(PROBLEM_KEYS)])
      expect(typeof lookup(key), `${code} -> ${key}`).toBe('string');
    expect(errorKeyOf('something_new')).toBe('errors.generic');
    expect(typeof lookup('errors.generic')).toBe('string');
  });

  it('reads a refusal by its code: the first problem of a 400, the wait of a 429', () => {
    expect(errorTextOf({ code: 'email_taken', message: 'whatever English' })).toEqual({
      key: 'auth.errors.emailTaken',
    });
    expect(errorTextOf({ code: 'links_reserved' })).toEqual({ key: 'send.errors.linksReserved' });
    expect(errorTextOf({ code: 'password_required' })).toEqual({ key: 'download.protected' });
    expect(
      errorTextOf({ code: 'invalid_request', details: { issues: [{ code: 'password_required', field: 'password' }] } }),
    ).toEqual({ key: 'auth.errors.passwordRequired' });
    expect(errorTextOf({ code: 'invalid_request', details: { issues: [{ code: 'too_big' }] } })).toEqual({
      key: 'errors.invalidRequest',
    });
    expect(errorTextOf({ code: 'rate_limited', details: { retryAfterSeconds: 600 } })).toEqual({
      key: 'errors.rateLimited',
      params: { count: 10 },
    });
    expect(errorTextOf({ code: 'brand_new' })).toEqual({ key: 'errors.generic' });
    expect(errorTextOf(new Error('offline'))).toEqual({ key: 'errors.generic' });
  });
});
