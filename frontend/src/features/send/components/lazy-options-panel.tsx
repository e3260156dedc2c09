import { Suspense, lazy, type ComponentProps } from 'react';
import { importWithRetry } from '@/lib/import-with-retry';
import type { OptionsPanel } from './options-panel';

let loading: ReturnType<typeof loadPanel> | undefined;
function loadPanel() {
  return importWithRetry(() => import('./options-panel'));
}

/**
 * Starts loading the options panel (the form's first interaction does), so a click on the cog,
 * or a send that must open one of its tabs, finds it there.
 */
export function preloadOptionsPanel(): Promise<unknown> {
  loading ??= loadPanel().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

const Panel = lazy(async () => {
  await preloadOptionsPanel();
  return { default: (await loading!).OptionsPanel };
});

/**
 * The cog panel (Link, Sharing, Expiry, Password tabs), loaded when first needed rather than with
 * the send form: most sends never open it, and the home and dashboard first loads stay lighter.
 */
export function LazyOptionsPanel(props: ComponentProps<typeof OptionsPanel>) {
  return (
    <Suspense fallback={<div id={props.id} className="qs-options" aria-busy="true" />}>
      <Panel {...props} />
    </Suspense>
  );
}
