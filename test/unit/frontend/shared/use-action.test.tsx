// @vitest-environment happy-dom
/**
 * A screen's action (lib/use-action.ts): busy while it runs, the API's refusal in the user's
 * language (or the screen's own wording), no second run while one is in flight, the screen's
 * own refusal, and nothing set once the screen has unmounted.
 */
import { createInstance, type i18n as I18n } from 'i18next';
import { act } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api';
import { useAction, type Action, type ActionOptions } from '@/lib/use-action';
import { CATALOGUE, FALLBACK_NS } from '../../../helpers/catalogues';
import { mount, settle } from '../../../helpers/dom-render';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

let i18n: I18n;
beforeAll(async () => {
  i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en',
    resources: { en: CATALOGUE.en },
    fallbackNS: FALLBACK_NS,
    interpolation: { escapeValue: false },
  });
});

let action: Action | null = null;
function Screen({ options }: { options?: ActionOptions }) {
  action = useAction(options);
  return (
    <p>
      <span data-testid="busy">{action.busyWith ?? 'idle'}</span>
      <span data-testid="error">{action.error ?? ''}</span>
    </p>
  );
}

let view: ReturnType<typeof mount> | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  action = null;
  vi.restoreAllMocks();
});
const render = (options?: ActionOptions) => {
  view = mount(
    <I18nextProvider i18n={i18n}>
      <Screen {...(options ? { options } : {})} />
    </I18nextProvider>,
  );
};
const text = (id: string) => view!.byTestId(id)?.textContent;

/** Starts a run inside act, so its first state updates are flushed; gives its outcome. */
function start(
  work: () => Promise<unknown>,
  tag?: string,
  onError?: (err: unknown, text: string) => void,
): Promise<boolean> {
  let outcome!: Promise<boolean>;
  act(() => {
    outcome = action!.run(work, { ...(tag ? { tag } : {}), ...(onError ? { onError } : {}) });
  });
  return outcome;
}

describe('useAction', () => {
  it('is busy while the work runs and idle after, and says it succeeded', async () => {
    render();
    const work = deferred();
    const outcome = start(() => work.promise, 'save');
    expect(text('busy')).toBe('save');
    expect(action!.busy).toBe(true);
    work.resolve();
    await settle();
    expect(text('busy')).toBe('idle');
    expect(action!.busy).toBe(false);
    expect(text('error')).toBe('');
    await expect(outcome).resolves.toBe(true);
  });

  it("names a run without a tag 'run'", async () => {
    render();
    const work = deferred();
    const outcome = start(() => work.promise);
    expect(text('busy')).toBe('run');
    work.resolve();
    await settle();
    await expect(outcome).resolves.toBe(true);
  });

  it("says an API refusal by its code in the user's language, with the code's values", async () => {
    render();
    const outcome = start(() =>
      Promise.reject(new ApiError(429, 'rate_limited', 'Too many requests', { retryAfterSeconds: 120 })),
    );
    await settle();
    expect(text('error')).toBe('Too many tries. Please try again in 2 minutes.');
    expect(text('busy')).toBe('idle');
    await expect(outcome).resolves.toBe(false);
  });

  it('says any other failure with the generic text, never its message', async () => {
    render();
    void start(() => Promise.reject(new Error('socket hang up')));
    await settle();
    expect(text('error')).toBe('Sorry, something went wrong. Please try again.');
  });

  it("uses the screen's own wording where it has one, and calls onError with the error and its text", async () => {
    render({ errorText: (err) => `own:${(err as ApiError).code}` });
    const refusal = new ApiError(409, 'contact_exists', 'exists');
    const onError = vi.fn();
    void start(() => Promise.reject(refusal), undefined, onError);
    await settle();
    expect(text('error')).toBe('own:contact_exists');
    expect(onError).toHaveBeenCalledWith(refusal, 'own:contact_exists');
  });

  it('drops a second run while one is in flight (a double submit), and takes one after', async () => {
    render();
    const first = deferred();
    const second = vi.fn(() => Promise.resolve());
    const one = start(() => first.promise, 'save');
    const two = start(second, 'delete');
    await expect(two).resolves.toBe(false);
    expect(second).not.toHaveBeenCalled();
    expect(text('busy')).toBe('save');
    first.resolve();
    await settle();
    await expect(one).resolves.toBe(true);
    const three = start(second, 'delete');
    await settle();
    expect(second).toHaveBeenCalledTimes(1);
    await expect(three).resolves.toBe(true);
  });

  it('clears the last failure when the next action starts', async () => {
    render();
    void start(() => Promise.reject(new Error('x')));
    await settle();
    expect(text('error')).not.toBe('');
    const work = deferred();
    void start(() => work.promise);
    expect(text('error')).toBe('');
    work.resolve();
    await settle();
  });

  it("shows the screen's own refusal and clears it", () => {
    render();
    act(() => action!.setError('Choose at least one event'));
    expect(text('error')).toBe('Choose at least one event');
    act(() => action!.setError(null));
    expect(text('error')).toBe('');
  });

  it('sets nothing once the screen has unmounted, and says the caller must not go on', async () => {
    const warn = vi.spyOn(console, 'error');
    render();
    const ok = deferred();
    const failing = deferred();
    const onError = vi.fn();
    const succeeded = start(() => ok.promise);
    view!.unmount();
    view = null;
    ok.resolve();
    await expect(succeeded).resolves.toBe(false);
    render();
    const failed = start(() => failing.promise, undefined, onError);
    view!.unmount();
    view = null;
    failing.reject(new Error('late'));
    await expect(failed).resolves.toBe(false);
    expect(onError).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });
});
