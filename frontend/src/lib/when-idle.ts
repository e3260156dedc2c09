type IdleWindow = Window & { requestIdleCallback?: (cb: () => void, options?: { timeout: number }) => number };

/**
 * Runs `task` once the page has loaded and the browser is idle (at the latest `timeoutMs` after
 * load): how the parts no first load carries arrive (the route head, the home extras).
 * Returns a cancel function.
 */
export function whenIdle(task: () => void, timeoutMs = 3000): () => void {
  let live = true;
  const run = () => live && task();
  const idle = () => {
    const w = window as IdleWindow;
    if (w.requestIdleCallback) w.requestIdleCallback(run, { timeout: timeoutMs });
    else window.setTimeout(run, 1);
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
  return () => {
    live = false;
    window.removeEventListener('load', idle);
  };
}
