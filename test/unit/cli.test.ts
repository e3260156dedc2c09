/**
 * the CLI's pure parts: argument parsing, expiry parsing, the refusal of plain http
 * to non-loopback hosts, the resume checkpoint store (keyed by file identity and options,
 * 0600, dropped after the resume window), exit codes, link parsing and safe output paths.
 */
import { describe, expect, it, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCommandLine, parseExpiry } from '../../packages/cli/src/args';
import { ApiError, UsageError, EXIT, describeError, exitCodeForStatus } from '../../packages/cli/src/errors';
import { isLoopbackHost, parseApiOrigin, resolveApiOrigin } from '../../packages/cli/src/origin';
import {
  checkpointFile,
  checkpointKey,
  clearSendCheckpoint,
  findSendCheckpoint,
  saveSendCheckpoint,
  type LocalFileIdentity,
} from '../../packages/cli/src/checkpoint';
import { configDir, readConfig, writeConfig } from '../../packages/cli/src/config';
import { collectFiles } from '../../packages/cli/src/files';
import { parseTransferRef, passwordHint, safeRelativePath } from '../../packages/cli/src/transfers';
import { redact } from '../../packages/cli/src/context';
import { completeWhenReady, matchPlan, uploadApi } from '../../packages/cli/src/send';
import { ApiClient } from '../../packages/cli/src/api';
import { progressLine } from '../../packages/cli/src/progress';
import { RESUME_WINDOW_SECONDS } from '../../functions/domain/expiry';

describe('argument parsing', () => {
  it('parses send with repeated --to, message, expiry and password', () => {
    const p = parseCommandLine([
      'send',
      './a',
      'b.txt',
      '--to',
      'x@y.io',
      '--to',
      'z@y.io',
      '-m',
      'hi',
      '--expiry',
      '1w',
      '--password',
      'pw',
      '--json',
    ]);
    expect(p.command).toBe('send');
    expect(p.positionals).toEqual(['./a', 'b.txt']);
    expect(p.values).toMatchObject({
      to: ['x@y.io', 'z@y.io'],
      message: 'hi',
      expiry: '1w',
      password: 'pw',
      json: true,
    });
  });

  it('refuses bad usage with UsageError (exit 1)', () => {
    const bad: string[][] = [
      ['frobnicate'],
      ['send'],
      ['send', 'a'],
      ['send', 'a', '--to', 'x@y.io', '--link'],
      ['send', 'a', '--to', 'not-an-email'],
      ['send', 'a', '--link', '--expiry', 'soon'],
      ['send', 'a', '--link', '--bogus'],
      ['send', 'a', '--link', '--parallel', '0'],
      ['get'],
      ['get', 'a', 'b'],
      ['ls', 'extra'],
      ['ls', '--skip', '-1'],
      ['request'],
      ['request', 'delete'],
      ['request', 'create'],
      ['request', 'create', '--title', '  '],
      ['login', '--api'],
    ];
    for (const argv of bad) {
      expect(() => parseCommandLine(argv), argv.join(' ')).toThrow(UsageError);
      try {
        parseCommandLine(argv);
      } catch (err) {
        expect((err as UsageError).exitCode).toBe(EXIT.usage);
      }
    }
  });

  it('knows request create, get -o, --zip, help and version', () => {
    expect(parseCommandLine(['request', 'create', '--title', 'T', '-m', 'M'])).toMatchObject({
      command: 'request create',
      values: { title: 'T', message: 'M' },
    });
    expect(parseCommandLine(['get', 'Abc1234', '-o', 'out', '--zip'])).toMatchObject({
      command: 'get',
      positionals: ['Abc1234'],
      values: { output: 'out', zip: true },
    });
    expect(parseCommandLine([]).command).toBe('help');
    expect(parseCommandLine(['send', '--help']).command).toBe('help');
    expect(parseCommandLine(['--version']).command).toBe('version');
  });

  it('knows receipt verify with its file and an optional key set, and nothing else under receipt', () => {
    expect(parseCommandLine(['receipt', 'verify', 'r.json', '--keys', 'k.json'])).toMatchObject({
      command: 'receipt verify',
      positionals: ['r.json'],
      values: { keys: 'k.json' },
    });
    expect(() => parseCommandLine(['receipt', 'verify'])).toThrow(/missing the receipt file/u);
    expect(() => parseCommandLine(['receipt', 'check', 'r.json'])).toThrow(/did you mean "receipt verify"/u);
    expect(() => parseCommandLine(['receipt', 'verify', 'a.json', 'b.json'])).toThrow(/unexpected argument b.json/u);
  });
});

describe('expiry parsing', () => {
  it('reads h, d, w, mo, y and seconds', () => {
    expect(parseExpiry('1w')).toBe(604800);
    expect(parseExpiry('7d')).toBe(604800);
    expect(parseExpiry('24h')).toBe(86400);
    expect(parseExpiry('1mo')).toBe(2629746);
    expect(parseExpiry('3mo')).toBe(7889238);
    expect(parseExpiry('1y')).toBe(31536000);
    expect(parseExpiry('3600')).toBe(3600);
    expect(parseExpiry(' 2W ')).toBe(1209600);
  });
  it('refuses anything else', () => {
    for (const v of ['', 'w', '1 week', '-1d', '0', '0d', '1.5d', '1x', '99999999999999999y'])
      expect(() => parseExpiry(v), v).toThrow(UsageError);
  });
});

describe('http refusal and the API origin', () => {
  it('allows https anywhere and http only to loopback', () => {
    expect(parseApiOrigin('https://send.example.com/some/path')).toBe('https://send.example.com');
    expect(parseApiOrigin('http://127.0.0.1:3001')).toBe('http://127.0.0.1:3001');
    expect(parseApiOrigin('http://localhost:3001')).toBe('http://localhost:3001');
    expect(parseApiOrigin('http://[::1]:3001')).toBe('http://[::1]:3001');
    for (const v of [
      'http://send.example.com',
      'http://10.0.0.5:3001',
      'http://192.168.1.2',
      'http://127.0.0.1.nip.io',
      'http://localhost.example.com',
      'ftp://127.0.0.1',
      'https://user:pw@send.example.com',
      'not a url',
    ]) {
      expect(() => parseApiOrigin(v), v).toThrow(UsageError);
    }
  });
  it('recognises loopback hosts', () => {
    expect(isLoopbackHost('127.8.9.10')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('api.localhost')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
    expect(isLoopbackHost('::2')).toBe(false);
  });
  it('takes --api, then SENDBRIDGE_API, then the saved login, then the local stack on API_PORT', () => {
    expect(resolveApiOrigin('https://a.example', { SENDBRIDGE_API: 'https://b.example' }, 'https://c.example')).toBe(
      'https://a.example',
    );
    expect(resolveApiOrigin(undefined, { SENDBRIDGE_API: 'https://b.example' }, 'https://c.example')).toBe(
      'https://b.example',
    );
    expect(resolveApiOrigin(undefined, {}, 'https://c.example')).toBe('https://c.example');
    expect(resolveApiOrigin(undefined, { API_PORT: '3701' }, undefined)).toBe('http://127.0.0.1:3701');
    expect(resolveApiOrigin(undefined, {}, undefined)).toBe('http://127.0.0.1:3001');
    expect(() => resolveApiOrigin(undefined, { SENDBRIDGE_API: 'http://evil.example' }, undefined)).toThrow(
      /refusing plain http/,
    );
  });
});

describe('config and checkpoint store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sendbridge-cli-unit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('puts the config in SENDBRIDGE_CONFIG_DIR, XDG_CONFIG_HOME or ~/.config, written 0600', () => {
    expect(configDir({ SENDBRIDGE_CONFIG_DIR: '/x' })).toBe('/x');
    expect(configDir({ XDG_CONFIG_HOME: '/cfg' })).toBe(path.join('/cfg', 'sendbridge'));
    expect(configDir({})).toBe(path.join(os.homedir(), '.config', 'sendbridge'));
    const d = path.join(dir, 'nested', 'sendbridge');
    writeConfig(d, { api: 'https://a.example', key: 'sbk_x' });
    expect(statSync(path.join(d, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(readConfig(d)).toEqual({ api: 'https://a.example', key: 'sbk_x' });
    writeFileSync(path.join(d, 'config.json'), '{not json');
    expect(readConfig(d)).toEqual({});
  });

  const files: LocalFileIdentity[] = [
    { path: '/p/a.txt', size: 10, mtimeMs: 1000.5, ino: 1 },
    { path: '/p/b.bin', size: 99, mtimeMs: 2000, ino: 2 },
  ];
  const opts = { sendAs: 'email', emailTo: [{ email: 'x@y.io' }], expirySeconds: 604800 };

  it('keys a send by the files identity and options, whatever their order', () => {
    const k = checkpointKey('https://a.example', files, opts);
    expect(
      checkpointKey('https://a.example', [...files].reverse(), {
        expirySeconds: 604800,
        emailTo: [{ email: 'x@y.io' }],
        sendAs: 'email',
      }),
    ).toBe(k);
    expect(checkpointKey('https://b.example', files, opts)).not.toBe(k);
    expect(checkpointKey('https://a.example', [files[0]!, { ...files[1]!, size: 100 }], opts)).not.toBe(k);
    expect(checkpointKey('https://a.example', [files[0]!, { ...files[1]!, mtimeMs: 2001 }], opts)).not.toBe(k);
    expect(checkpointKey('https://a.example', [files[0]!, { ...files[1]!, ino: 3 }], opts)).not.toBe(k);
    expect(checkpointKey('https://a.example', files, { ...opts, emailTo: [{ email: 'other@y.io' }] })).not.toBe(k);
  });

  it('saves, finds within the resume window only, and clears checkpoints (0600)', () => {
    const k = checkpointKey('https://a.example', files, opts);
    const now = 1_800_000_000_000;
    const cp = {
      transferId: 'Abc1234',
      origin: 'https://a.example',
      createdAt: now,
      files: [{ fileId: 'f000000001', path: '/p/a.txt', size: 10 }],
    };
    expect(findSendCheckpoint(dir, k, now)).toBeNull();
    saveSendCheckpoint(dir, k, cp, now);
    expect(statSync(checkpointFile(dir)).mode & 0o777).toBe(0o600);
    expect(findSendCheckpoint(dir, k, now + 1000)).toEqual(cp);
    expect(findSendCheckpoint(dir, 'other', now)).toBeNull();
    expect(findSendCheckpoint(dir, k, now + RESUME_WINDOW_SECONDS * 1000 - 1)).toEqual(cp);
    expect(findSendCheckpoint(dir, k, now + RESUME_WINDOW_SECONDS * 1000)).toBeNull();
    // an expired one is dropped from the file when another is saved
    const later = now + RESUME_WINDOW_SECONDS * 1000 + 1;
    saveSendCheckpoint(dir, 'second', { ...cp, transferId: 'Xyz9876', createdAt: later }, later);
    expect(findSendCheckpoint(dir, k, now)).toBeNull();
    expect(findSendCheckpoint(dir, 'second', now + RESUME_WINDOW_SECONDS * 1000 + 2)?.transferId).toBe('Xyz9876');
    clearSendCheckpoint(dir, 'second', now + RESUME_WINDOW_SECONDS * 1000 + 2);
    expect(findSendCheckpoint(dir, 'second', now + RESUME_WINDOW_SECONDS * 1000 + 2)).toBeNull();
    writeFileSync(checkpointFile(dir), 'garbage');
    expect(findSendCheckpoint(dir, k, now)).toBeNull();
  });

  it('collects folders recursively with paths relative to the folder parent', () => {
    mkdirSync(path.join(dir, 'proj', 'sub', 'deeper'), { recursive: true });
    writeFileSync(path.join(dir, 'proj', 'a.txt'), 'a');
    writeFileSync(path.join(dir, 'proj', 'sub', 'deeper', 'c.txt'), 'ccc');
    writeFileSync(path.join(dir, 'loose.bin'), 'xx');
    const got = collectFiles(['proj', 'loose.bin', 'proj/a.txt'], dir);
    expect(got.map((f) => [f.fileName, f.itemPath ?? null, f.size])).toEqual([
      ['a.txt', 'proj/a.txt', 1],
      ['c.txt', 'proj/sub/deeper/c.txt', 3],
      ['loose.bin', null, 2],
    ]);
    expect(() => collectFiles(['missing'], dir)).toThrow(UsageError);
    mkdirSync(path.join(dir, 'empty'));
    expect(() => collectFiles(['empty'], dir)).toThrow(/nothing to send/);
  });
});

describe('exit codes, links, paths, secrets', () => {
  it('maps API answers to exit codes', () => {
    expect(exitCodeForStatus(401, 'invalid_api_key')).toBe(EXIT.auth);
    expect(exitCodeForStatus(403, 'key_scope_missing')).toBe(EXIT.auth);
    expect(exitCodeForStatus(404, 'transfer_not_found')).toBe(EXIT.notFound);
    expect(exitCodeForStatus(410, 'transfer_expired')).toBe(EXIT.notFound);
    expect(exitCodeForStatus(400, 'invalid_request')).toBe(EXIT.usage);
    expect(exitCodeForStatus(429, 'rate_limited')).toBe(EXIT.network);
    expect(exitCodeForStatus(502, 'http_502')).toBe(EXIT.server);
  });

  it('reads links and ids', () => {
    expect(parseTransferRef('Abc1234')).toEqual({ id: 'Abc1234' });
    expect(parseTransferRef('https://send.example/w/Abc1234')).toEqual({
      id: 'Abc1234',
      origin: 'https://send.example',
    });
    expect(parseTransferRef('https://send.example/downloads/Abc1234/R1234567')).toEqual({
      id: 'Abc1234',
      recipient: 'R1234567',
      origin: 'https://send.example',
    });
    expect(parseTransferRef('https://send.example/d/Abc1234')).toMatchObject({ id: 'Abc1234' });
    for (const bad of ['Abc12', 'https://send.example/x/Abc1234', 'https://send.example/w/../../etc'])
      expect(() => parseTransferRef(bad), bad).toThrow(UsageError);
  });

  it('never writes outside the output folder', () => {
    expect(safeRelativePath('a/b/c.txt')).toBe(path.join('a', 'b', 'c.txt'));
    expect(safeRelativePath('../../etc/passwd')).toBe(path.join('etc', 'passwd'));
    expect(safeRelativePath('/abs/x')).toBe(path.join('abs', 'x'));
    expect(safeRelativePath('a\\..\\b')).toBe(path.join('a', 'b'));
    expect(() => safeRelativePath('../..')).toThrow();
  });

  it('prints sizes and speeds rounded, small speeds included', () => {
    const p = {
      bytesDone: 41,
      bytesTotal: 82,
      filesDone: 0,
      filesTotal: 2,
      speedBps: 268.17606008205985,
      etaMs: 153,
      phase: 'transferring',
      tryNumber: 1,
    } as Parameters<typeof progressLine>[0];
    expect(progressLine(p, 10)).toBe('[#####.....]  50%  41 B / 82 B  268 B/s  0s left');
    expect(
      progressLine({ ...p, bytesDone: 1_234_567_890, bytesTotal: 2_900_000_000, speedBps: 35_149_999 }, 10),
    ).toMatch(/ 1\.2 GB \/ 2\.9 GB {2}35\.1 MB\/s /u);
  });

  it('tells a missing password from a wrong one, with the option to use, keeping code and exit code', () => {
    const missing = passwordHint(
      new ApiError(401, 'password_required', 'This transfer is password protected.'),
    ) as ApiError;
    expect(missing.message).toBe('This transfer is password protected: give its password with --password.');
    const wrong = passwordHint(new ApiError(401, 'wrong_password', 'This transfer is password protected.')) as ApiError;
    expect(wrong.message).toBe('Wrong password for this transfer (--password).');
    expect([missing.code, missing.exitCode, wrong.code, wrong.exitCode]).toEqual([
      'password_required',
      EXIT.auth,
      'wrong_password',
      EXIT.auth,
    ]);
    const other = new ApiError(404, 'transfer_not_found', 'gone');
    expect(passwordHint(other)).toBe(other);
  });

  it('names the option a refused field came from', () => {
    const refused = (field: string, message: string) =>
      new ApiError(400, 'invalid_request', `body: ${field} ${message}`, {
        where: 'body',
        issues: [{ code: 'x', field, message }],
      });
    expect(describeError(refused('message', 'Message can be at most 280 characters'))).toBe(
      '--message: Message can be at most 280 characters',
    );
    expect(describeError(refused('emailTo.3.email', 'Enter a valid email address'))).toBe(
      '--to: Enter a valid email address',
    );
    expect(describeError(refused('fileObjects', 'Too many files'))).toBe('fileObjects: Too many files');
    expect(describeError(new ApiError(404, 'transfer_not_found', 'This transfer does not exist.'))).toBe(
      'This transfer does not exist.',
    );
    expect(describeError(new Error('plain'))).toBe('plain');
  });

  it('masks API keys in anything printed', () => {
    const k = `sbk_live_0123456789abcdef_${'A'.repeat(40)}`;
    expect(redact(`oops ${k} here`)).toBe('oops sbk_*** here');
  });

  it('pairs the server plan with local files by path and size', () => {
    const local = [
      { path: '/w/p/a', fileName: 'a', itemPath: 'p/a', size: 1, mtimeMs: 0, ino: 1 },
      { path: '/w/p/b', fileName: 'b', itemPath: 'p/b', size: 2, mtimeMs: 0, ino: 2 },
    ];
    const m = matchPlan(
      [
        { fileId: 'F2', fileName: 'b', itemPath: 'p/b', size: 2, mode: 'single' },
        { fileId: 'F1', fileName: 'a', itemPath: 'p/a', size: 1, mode: 'single' },
      ],
      local,
    );
    expect(m.get('F1')!.path).toBe('/w/p/a');
    expect(m.get('F2')!.path).toBe('/w/p/b');
    expect(() => matchPlan([{ fileId: 'F3', fileName: 'c', size: 9, mode: 'single' }], local)).toThrow(/cannot find/);
  });
});

describe('completing a transfer whose large files are still put together', () => {
  it('asks again while the API answers 202 completing, after its Retry-After at least, then reports the sent transfer', async () => {
    const asked: string[] = [];
    const answers = [
      new Response(JSON.stringify({ id: 'Abc1234', state: 'completing', completing: ['f'], retryAfterSeconds: 3 }), {
        status: 202,
        headers: { 'retry-after': '7' },
      }),
      new Response(JSON.stringify({ id: 'Abc1234', state: 'completing', completing: ['f'], retryAfterSeconds: 3 }), {
        status: 202,
      }),
      new Response(
        JSON.stringify({
          id: 'Abc1234',
          state: 'complete',
          link: 'https://x/w/Abc1234',
          expiryDate: 1,
          recipients: [],
        }),
        { status: 200 },
      ),
    ];
    const client = new ApiClient({
      origin: 'http://127.0.0.1:9',
      key: 'sbk_test',
      fetchImpl: (async (url: string, init: RequestInit) => {
        asked.push(`${init.method} ${url}`);
        return answers.shift()!;
      }) as typeof fetch,
    });
    const slept: number[] = [];
    const done = await completeWhenReady(client, 'Abc1234', async (ms) => {
      slept.push(ms);
    });
    expect(done).toMatchObject({ state: 'complete', link: 'https://x/w/Abc1234' });
    expect(asked).toEqual(Array(3).fill('POST http://127.0.0.1:9/api/v1/transfers/Abc1234/complete'));
    // the header's 7 s the first time; the body's 3 s when no header came
    expect(slept).toEqual([7000, 3000]);
  });
});

describe("the CLI's upload API", () => {
  it("passes the engine's CRC-32s on: with each part, and with a single file's complete call", async () => {
    const sent: { method: string | undefined; url: string; body: unknown }[] = [];
    const client = new ApiClient({
      origin: 'http://127.0.0.1:9',
      key: 'sbk_test',
      fetchImpl: (async (url: string, init: RequestInit) => {
        sent.push({
          method: init.method,
          url,
          body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
        });
        return new Response(JSON.stringify({ recorded: true, state: 'complete' }), { status: 200 });
      }) as typeof fetch,
    });
    const api = uploadApi(client, 'Abc1234', () => {});
    await api.recordPart({ fileId: 'fileAAAAAA', partNumber: 2, etag: '"e"', size: 5, crc32: 4_000_000_000 });
    await api.completeFile('fileBBBBBB', undefined, { crc32: 0 });
    await api.completeFile('fileAAAAAA');
    expect(sent).toEqual([
      {
        method: 'POST',
        url: 'http://127.0.0.1:9/api/v1/transfers/Abc1234/parts',
        body: { fileId: 'fileAAAAAA', partNumber: 2, etag: '"e"', size: 5, crc32: 4_000_000_000 },
      },
      {
        method: 'POST',
        url: 'http://127.0.0.1:9/api/v1/transfers/Abc1234/files/fileBBBBBB/complete',
        body: { crc32: 0 },
      },
      { method: 'POST', url: 'http://127.0.0.1:9/api/v1/transfers/Abc1234/files/fileAAAAAA/complete', body: undefined },
    ]);
  });
});
