// @vitest-environment happy-dom
/**
 * The shared inline confirmation (components/inline-confirm.tsx): its markup (a group named by
 * its question, the two answers, the test ids the screens give it) and its focus handling: focus
 * moves to the safe answer when the question appears and back to the button that asked after.
 */
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InlineConfirm, useInlineConfirm, type InlineConfirmProps } from '@/components/inline-confirm';
import { click, mount } from '../../../helpers/dom-render';

type Extra = Partial<
  Pick<InlineConfirmProps, 'busy' | 'cancelWhileBusy' | 'small' | 'confirmClassName' | 'cancelClassName'>
>;

/** A screen's use: a Remove button that asks, the question in its place, Remove closing it. */
function Harness({ onConfirm, extra = {} }: { onConfirm: () => void; extra?: Extra }) {
  const confirm = useInlineConfirm();
  const [removed, setRemoved] = useState(0);
  return (
    <div>
      <p data-testid="removed">{removed}</p>
      {confirm.open ? (
        <InlineConfirm
          className="x-confirm"
          question="Remove files.example.com?"
          confirmLabel="Remove"
          cancelLabel="Keep"
          onConfirm={() => {
            confirm.close();
            setRemoved((n) => n + 1);
            onConfirm();
          }}
          onCancel={confirm.close}
          testId="q"
          confirmTestId="yes"
          cancelTestId="no"
          {...extra}
        />
      ) : (
        <button type="button" ref={confirm.triggerRef} onClick={confirm.ask} data-testid="ask">
          Remove
        </button>
      )}
      <button type="button" data-testid="elsewhere">
        Other
      </button>
    </div>
  );
}

let view: ReturnType<typeof mount> | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
});

describe('InlineConfirm with useInlineConfirm', () => {
  it('asks in a group named by the question, with focus on the safe answer', () => {
    view = mount(<Harness onConfirm={() => undefined} />);
    expect(view.byTestId('q')).toBeNull();
    expect(document.activeElement).toBe(document.body);

    click(view.byTestId('ask'));
    const group = view.byTestId('q')!;
    expect(group.getAttribute('role')).toBe('group');
    expect(group.className).toBe('x-confirm');
    const question = document.getElementById(group.getAttribute('aria-labelledby')!);
    expect(question?.textContent).toBe('Remove files.example.com?');
    expect(view.byTestId('yes')?.textContent).toBe('Remove');
    expect(view.byTestId('yes')?.className).toBe('btn btn-primary');
    expect(view.byTestId('no')?.className).toBe('btn btn-ghost');
    expect(document.activeElement).toBe(view.byTestId('no'));
    expect(view.byTestId('ask')).toBeNull();
  });

  it('gives focus back to the button that asked when the answer is Keep, and acts on nothing', () => {
    const onConfirm = vi.fn();
    view = mount(<Harness onConfirm={onConfirm} />);
    click(view.byTestId('ask'));
    click(view.byTestId('no'));
    expect(view.byTestId('q')).toBeNull();
    expect(document.activeElement).toBe(view.byTestId('ask'));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(view.byTestId('removed')?.textContent).toBe('0');
  });

  it('confirms once on the confirm answer', () => {
    const onConfirm = vi.fn();
    view = mount(<Harness onConfirm={onConfirm} />);
    click(view.byTestId('ask'));
    click(view.byTestId('yes'));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(view.byTestId('removed')?.textContent).toBe('1');
    expect(document.activeElement).toBe(view.byTestId('ask'));
  });

  it('disables the confirm answer while busy, and Cancel only when asked to', () => {
    view = mount(<Harness onConfirm={() => undefined} extra={{ busy: true }} />);
    click(view.byTestId('ask'));
    expect((view.byTestId('yes') as HTMLButtonElement).disabled).toBe(true);
    expect((view.byTestId('no') as HTMLButtonElement).disabled).toBe(false);
    view.rerender(<Harness onConfirm={() => undefined} extra={{ busy: true, cancelWhileBusy: false }} />);
    expect((view.byTestId('no') as HTMLButtonElement).disabled).toBe(true);
    view.rerender(<Harness onConfirm={() => undefined} extra={{ busy: false, cancelWhileBusy: false }} />);
    expect((view.byTestId('yes') as HTMLButtonElement).disabled).toBe(false);
    expect((view.byTestId('no') as HTMLButtonElement).disabled).toBe(false);
  });

  it('has small buttons in a row of small actions, and keeps a class the screen gives', () => {
    view = mount(
      <Harness onConfirm={() => undefined} extra={{ small: true, confirmClassName: 'btn btn-sm ak-danger' }} />,
    );
    click(view.byTestId('ask'));
    expect(view.byTestId('yes')?.className).toBe('btn btn-sm ak-danger');
    expect(view.byTestId('no')?.className).toBe('btn btn-ghost btn-sm');
    view.rerender(<Harness onConfirm={() => undefined} extra={{ small: true }} />);
    expect(view.byTestId('yes')?.className).toBe('btn btn-primary btn-sm');
  });

  it('does not take focus back on renders that did not close a question', () => {
    view = mount(<Harness onConfirm={() => undefined} />);
    (view.byTestId('elsewhere') as HTMLButtonElement).focus();
    view.rerender(<Harness onConfirm={() => undefined} extra={{ busy: true }} />);
    expect(document.activeElement).toBe(view.byTestId('elsewhere'));
  });
});
