import { describe, expect, it } from 'vitest';
import { startChild } from '../../../scripts/local/child';
import {
  DEFAULT_START_TIMEOUT_MS,
  StartTimeoutError,
  startTimeoutMessage,
  startTimeoutMs,
} from '../../../scripts/local/start-timeout';

describe('how long npm start waits for an emulator', () => {
  it('waits two minutes unless EMULATOR_START_TIMEOUT_MS says otherwise', () => {
    expect(startTimeoutMs({})).toBe(DEFAULT_START_TIMEOUT_MS);
    expect(DEFAULT_START_TIMEOUT_MS).toBe(120_000);
    expect(startTimeoutMs({ EMULATOR_START_TIMEOUT_MS: '' })).toBe(120_000);
    expect(startTimeoutMs({ EMULATOR_START_TIMEOUT_MS: '300000' })).toBe(300_000);
  });

  it('refuses a wait that is not a positive whole number of milliseconds, in one line naming the variable', () => {
    for (const raw of ['2m', '-5', '0', '1.5', 'abc']) {
      expect(() => startTimeoutMs({ EMULATOR_START_TIMEOUT_MS: raw })).toThrow(
        `EMULATOR_START_TIMEOUT_MS=${raw} is not a number of milliseconds`,
      );
    }
  });

  it('gives up in one line naming the process, its port, and how to wait longer', () => {
    const line = startTimeoutMessage({
      service: 'DynamoDB Local',
      host: '127.0.0.1',
      port: 8000,
      pid: 4242,
      timeoutMs: 120_000,
    });
    expect(line).toBe(
      'DynamoDB Local (pid 4242) did not listen on 127.0.0.1:8000 within 120 s: on a busy machine set ' +
        'EMULATOR_START_TIMEOUT_MS=240000 in .env; otherwise see whether pid 4242 is stuck (DEBUG=1 shows its output)',
    );
    expect(line).not.toContain('\n');
  });

  it('suggests at least the default when the wait was set lower', () => {
    const line = startTimeoutMessage({ service: 'cognito-local', host: '127.0.0.1', port: 9229, timeoutMs: 10_000 });
    expect(line).toMatch(
      /^cognito-local did not listen on 127\.0\.0\.1:9229 within 10 s: .*EMULATOR_START_TIMEOUT_MS=120000 in \.env/,
    );
    expect(line).toContain('the cognito-local process is stuck');
  });

  it('is what a child that never gets ready ends with, its pid and port named first', async () => {
    const err = await startChild('slow emulator', process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      ready: /READY/,
      timeoutMs: 300,
      port: 8123,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartTimeoutError);
    const first = (err as Error).message.split('\n')[0]!;
    expect(first).toMatch(
      /^slow emulator \(pid \d+\) did not listen on 127\.0\.0\.1:8123 within 300 ms: .*EMULATOR_START_TIMEOUT_MS=120000/,
    );
  });
});
