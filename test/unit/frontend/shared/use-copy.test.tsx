// @vitest-environment happy-dom
/** A Copy button's clipboard (lib/use-copy.ts): "copied" for a moment, nothing when the clipboard refuses. */
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCopy } from '@/lib/use-copy';
import { click, mount, settle } from '../../../helpers/dom-render';

function Button({ value }: { value: string }) {
  const { copied, copy } = useCopy();
  return (
    <button type="button" data-testid="copy" onClick={() => void copy(value)}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

let view: ReturnType<typeof mount> | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function clipboard(writeText: (text: string) => Promise<void>) {
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
}

describe('useCopy', () => {
  it('writes the value and says Copied, then Copy again', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    clipboard(writeText);
    view = mount(<Button value="whsec_1" />);
    vi.useFakeTimers();
    click(view.byTestId('copy'));
    await act(async () => {
      await Promise.resolve();
    });
    expect(writeText).toHaveBeenCalledWith('whsec_1');
    expect(view.byTestId('copy')?.textContent).toBe('Copied');
    act(() => {
      vi.runAllTimers();
    });
    expect(view.byTestId('copy')?.textContent).toBe('Copy');
  });

  it('says nothing when the clipboard refuses', async () => {
    clipboard(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    view = mount(<Button value="whsec_1" />);
    click(view.byTestId('copy'));
    await settle();
    expect(view.byTestId('copy')?.textContent).toBe('Copy');
  });
});
