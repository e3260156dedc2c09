import type { ComponentType } from 'react';
import { i18n } from '@/i18n/i18n';
import { ExampleToasts } from './example-toast';
import { LogoStrip } from './logo-strip';
import '@/features/home/home-extras.css';

/**
 * The home page's parts that no first load carries (spec §2 "customer logos" and the
 * marketing notification toasts). home-page.tsx loads this chunk and its `marketing` catalogue
 * once the page has loaded and the browser is idle; the strip fills a slot whose height the
 * stylesheet already reserves, and the toasts are fixed to a corner, so neither moves anything.
 */
export interface HomeExtras {
  readonly LogoStrip: ComponentType;
  readonly ExampleToasts: ComponentType;
}

export async function loadHomeExtras(): Promise<HomeExtras> {
  await i18n.loadNamespaces(['marketing']);
  return { LogoStrip, ExampleToasts };
}
