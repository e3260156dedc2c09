// @vitest-environment happy-dom
/**
 * The shared page load (lib/use-load.ts): loading, then ready or failed (or refused for the
 * errors a screen names final), Retry, loads again when its inputs change, the request cancelled
 * on unmount and on a newer load with any late answer dropped, and the screen's own changes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadFailed } from '@/components/load-failed';
import { useLoad, type LoadOptions, type LoadResult } from '@/lib/use-load';
import { mount, settle } from '../../../helpers/dom-render';
import { act } from 'react';

/** A promise the test answers when it wants, with the signal its call got. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

type Call = { key: string; signal: AbortSignal; answer: ReturnType<typeof deferred<string>> };

/** A fetch whose every call the test sees and answers. */
function fakeFetch() {
  const calls: Call[] = [];
  const fetch = (key: string) => (signal: AbortSignal) => {
    const answer = deferred<string>();
    calls.push({ key, signal, answer });
    return answer.promise;
  };
  return { calls, fetch };
}

let seen: LoadResult<string, boolean>[] = [];
const last = () => seen[seen.length - 1]!;

function Screen({
  fetch,
  k,
  options,
}: {
  fetch: (key: string) => (signal: AbortSignal) => Promise<string>;
  k: string;
  options?: LoadOptions;
}) {
  const load = useLoad(fetch(k), [k], options as Omit<LoadOptions, 'refused'>);
  seen.push(load);
  return <p data-testid="state">{load.state === 'ready' ? `ready:${load.data}` : load.state}</p>;
}

let view: ReturnType<typeof mount> | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  seen = [];
});
const shown = () => view!.byTestId('state')?.textContent;

describe('useLoad', () => {
  it('is loading, then ready with the answer; the call gets a live signal', async () => {
    const f = fakeFetch();
    view = mount(<Screen fetch={f.fetch} k="a" />);
    expect(shown()).toBe('loading');
    expect(f.calls).toHaveLength(1);
    expect(f.calls[0]!.signal.aborted).toBe(false);
    f.calls[0]!.answer.resolve('A');
    await settle();
    expect(shown()).toBe('ready:A');
    expect(f.calls).toHaveLength(1);
  });

  it('fails with the error, and Retry loads again (loading until it answers)', async () => {
    const f = fakeFetch();
    view = mount(<Screen fetch={f.fetch} k="a" />);
    const error = new Error('down');
    f.calls[0]!.answer.reject(error);
    await settle();
    expect(shown()).toBe('failed');
    const failed = last();
    expect(failed.state === 'failed' ? failed.error : null).toBe(error);

    act(() => last().reload());
    expect(shown()).toBe('loading');
    expect(f.calls).toHaveLength(2);
    f.calls[1]!.answer.resolve('A2');
    await settle();
    expect(shown()).toBe('ready:A2');
  });

  it("says 'refused' for the errors the screen names final, 'failed' for the others", async () => {
    const f = fakeFetch();
    const refused = (e: unknown) => e === 'forbidden';
    view = mount(<Screen fetch={f.fetch} k="a" options={{ refused }} />);
    f.calls[0]!.answer.reject('forbidden');
    await settle();
    expect(shown()).toBe('refused');
    act(() => last().reload());
    f.calls[1]!.answer.reject('timeout');
    await settle();
    expect(shown()).toBe('failed');
  });

  it('fetches nothing while not enabled, and loads once it is', async () => {
    const f = fakeFetch();
    view = mount(<Screen fetch={f.fetch} k="a" options={{ enabled: false }} />);
    await settle();
    expect(f.calls).toHaveLength(0);
    expect(shown()).toBe('loading');
    act(() => last().reload());
    expect(f.calls).toHaveLength(0);

    view.rerender(<Screen fetch={f.fetch} k="a" options={{ enabled: true }} />);
    expect(f.calls).toHaveLength(1);
    f.calls[0]!.answer.resolve('A');
    await settle();
    expect(shown()).toBe('ready:A');
  });

  it('loads again when its inputs change, cancelling the older call and dropping its late answer', async () => {
    const f = fakeFetch();
    view = mount(<Screen fetch={f.fetch} k="a" />);
    view.rerender(<Screen fetch={f.fetch} k="b" />);
    expect(f.calls.map((c) => c.key)).toEqual(['a', 'b']);
    expect(f.calls[0]!.signal.aborted).toBe(true);
    expect(f.calls[1]!.signal.aborted).toBe(false);

    f.calls[1]!.answer.resolve('B');
    await settle();
    f.calls[0]!.answer.resolve('A (late)');
    await settle();
    expect(shown()).toBe('ready:B');

    // the same inputs: no new call
    view.rerender(<Screen fetch={f.fetch} k="b" />);
    expect(f.calls).toHaveLength(2);
  });

  it('cancels its call on unmount and sets nothing after', async () => {
    const f = fakeFetch();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    view = mount(<Screen fetch={f.fetch} k="a" />);
    const renders = seen.length;
    view.unmount();
    view = null;
    expect(f.calls[0]!.signal.aborted).toBe(true);
    f.calls[0]!.answer.reject(new DOMException('aborted', 'AbortError'));
    await settle();
    expect(seen).toHaveLength(renders);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it("takes the screen's own changes: a value makes it ready, a change applies only to loaded data", async () => {
    const f = fakeFetch();
    view = mount(<Screen fetch={f.fetch} k="a" />);
    act(() => last().setData((d) => `${d}!`));
    expect(shown()).toBe('loading');

    f.calls[0]!.answer.resolve('A');
    await settle();
    act(() => last().setData((d) => `${d}!`));
    expect(shown()).toBe('ready:A!');
    act(() => last().setData('fresh'));
    expect(shown()).toBe('ready:fresh');
    expect(f.calls).toHaveLength(1);
  });

  it('keeps reload and setData the same functions across renders (safe in effect deps)', async () => {
    const f = fakeFetch();
    view = mount(<Screen fetch={f.fetch} k="a" />);
    const first = seen[0]!;
    f.calls[0]!.answer.resolve('A');
    await settle();
    expect(seen.length).toBeGreaterThan(1);
    expect(last().reload).toBe(first.reload);
    expect(last().setData).toBe(first.setData);
  });
});

describe('LoadFailed', () => {
  it('says what failed as an alert, and its button retries', () => {
    const onRetry = vi.fn();
    view = mount(<LoadFailed text="Could not load." retryLabel="Try again" onRetry={onRetry} />);
    const card = view.container.querySelector('[role="alert"]')!;
    expect(card.querySelector('p')?.textContent).toBe('Could not load.');
    const button = card.querySelector('button')!;
    expect(button.textContent).toBe('Try again');
    act(() => button.click());
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
