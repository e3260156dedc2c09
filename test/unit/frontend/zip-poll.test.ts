import { describe, expect, it, vi } from 'vitest';
import type { ZipResponse } from '@domain/transfer-api';
import { pollZip, sleep, ZIP_POLL_INTERVAL_MS, ZipTimeoutError } from '@/shared/downloads/zip-poll';

/** A clock that moves only when the poller waits, so the cap is reached without real time. */
function fakeClock() {
  let now = 0;
  const waits: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      waits.push(ms);
      now += ms;
    },
    waits,
  };
}

function answers(...sequence: ZipResponse[]) {
  return vi.fn(async () => {
    const next = sequence.length > 1 ? sequence.shift() : sequence[0];
    if (!next) throw new Error('no answer');
    return next;
  });
}

describe('pollZip', () => {
  it('returns at once when the ZIP is already built', async () => {
    const clock = fakeClock();
    const request = answers({ status: 'ready', url: 'https://s3/zip', size: 42 });
    await expect(pollZip(request, clock)).resolves.toEqual({ url: 'https://s3/zip', size: 42 });
    expect(request).toHaveBeenCalledTimes(1);
    expect(clock.waits).toEqual([]);
  });

  it('asks again every interval while it is building', async () => {
    const clock = fakeClock();
    const request = answers(
      { status: 'building' },
      { status: 'building' },
      { status: 'ready', url: 'https://s3/zip', size: 7 },
    );
    await expect(pollZip(request, clock)).resolves.toEqual({ url: 'https://s3/zip', size: 7 });
    expect(request).toHaveBeenCalledTimes(3);
    expect(clock.waits).toEqual([ZIP_POLL_INTERVAL_MS, ZIP_POLL_INTERVAL_MS]);
  });

  it('gives up past the cap', async () => {
    const clock = fakeClock();
    const request = answers({ status: 'building' });
    await expect(pollZip(request, { ...clock, maxMs: 10_000, intervalMs: 2_000 })).rejects.toBeInstanceOf(
      ZipTimeoutError,
    );
    // t=0,2,4,6,8,10 s: six requests, and no wait that would end past the cap
    expect(request).toHaveBeenCalledTimes(6);
    expect(clock.now()).toBe(10_000);
  });

  it("passes the request's error on", async () => {
    const clock = fakeClock();
    const failure = new Error('410');
    const request = vi.fn(async (): Promise<ZipResponse> => {
      throw failure;
    });
    await expect(pollZip(request, clock)).rejects.toBe(failure);
  });

  it('stops when aborted between polls', async () => {
    const controller = new AbortController();
    const request = vi.fn(async (): Promise<ZipResponse> => {
      controller.abort(new Error('left the page'));
      return { status: 'building' };
    });
    await expect(pollZip(request, { signal: controller.signal, intervalMs: 60_000 })).rejects.toThrow('left the page');
    expect(request).toHaveBeenCalledTimes(1);
  });
});

describe('sleep', () => {
  it('rejects as soon as the signal aborts', async () => {
    // On a fake clock that never moves: the abort alone must settle it, however busy the machine.
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const waiting = sleep(60_000, controller.signal);
      controller.abort(new Error('gone'));
      await expect(waiting).rejects.toThrow('gone');
    } finally {
      vi.useRealTimers();
    }
  });
});
