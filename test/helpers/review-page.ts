import type { Locator, Page } from 'playwright-core';

/** The download page's review (frontend/src/features/downloads/review), as the e2e tests drive it. */
export const fileTab = (p: Page, name: string) =>
  p.locator(`[data-testid="review-file-tab"][data-file-name="${name}"]`);

/** Writes a comment in the open file's form and sends it. */
export async function comment(p: Page, text: string): Promise<void> {
  await p.getByTestId('review-comment-body').fill(text);
  await p.getByTestId('review-comment-submit').click();
}

/** Waits until the open file's image has loaded (a pin needs its box). */
export function imageLoaded(p: Page, timeout: number): Promise<unknown> {
  return p.waitForFunction(
    () => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="review-image"]');
      return !!img && img.complete && img.naturalWidth > 0;
    },
    undefined,
    { timeout },
  );
}

/** Seeks the review's player to `seconds` and waits until it got there. */
export function seekTo(media: Locator, seconds: number): Promise<void> {
  return media.evaluate(
    (el: HTMLMediaElement, to) =>
      new Promise<void>((resolve) => {
        el.addEventListener('seeked', () => resolve(), { once: true });
        el.currentTime = to;
      }),
    seconds,
  );
}

/** Approves the whole transfer and waits until the page shows it approved. */
export async function approveTransfer(p: Page, poll: { timeout: number; interval: number }): Promise<void> {
  const box = p.getByTestId('review-transfer-decision');
  await box.getByTestId('review-approve').click();
  await p.waitForFunction(
    () =>
      document
        .querySelector('[data-testid="review-transfer-decision"] [data-testid="review-decision-status"]')
        ?.getAttribute('data-decision') === 'approved',
    undefined,
    { timeout: poll.timeout, polling: poll.interval },
  );
}
