import { act, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';

// Tells React that updates here are wrapped in act(), so it flushes them and warns of any that are not.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/**
 * For unit tests that run in the happy-dom environment (`// @vitest-environment happy-dom`):
 * renders a view into a fresh container with react-dom/client, effects flushed, and gives back
 * the container, a rerender and an unmount.
 */
export function mount(element: ReactElement) {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  act(() => {
    root.render(element);
  });
  return {
    container,
    byTestId(id: string): HTMLElement | null {
      return container.querySelector(`[data-testid="${id}"]`);
    },
    rerender(next: ReactElement) {
      act(() => {
        root.render(next);
      });
    },
    unmount() {
      act(() => {
        root.unmount();
      });
      container.remove();
    },
  };
}

/** Clicks an element and flushes the state updates and effects it causes. */
export function click(element: Element | null) {
  if (!element) throw new Error('nothing to click');
  act(() => {
    (element as HTMLElement).click();
  });
}

/** Lets pending promises settle, then flushes what they set. */
export async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}
