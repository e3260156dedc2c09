import { lazy, type ComponentType } from 'react';
import type { AccountNavProps } from '@/components/account-nav';
import { withNamespaces } from '@/i18n/with-namespaces';
import { importWithRetry } from '@/lib/import-with-retry';

/**
 * The notifications bell: its own chunk, with its catalogue, fetched only once someone is signed
 * in (the home and download pages' first load stays as it was). If it cannot load, the bar goes
 * without it rather than failing the page.
 */
export const NotificationBell = lazy(
  // 'requests': the bell names uploads to the user's file requests
  withNamespaces(['insights', 'requests'], () =>
    importWithRetry(() => import('@/features/notifications/components/notification-bell')).then(
      (m): { default: ComponentType } => ({ default: m.NotificationBell }),
      (): { default: ComponentType } => ({ default: () => null }),
    ),
  ),
);

/**
 * The signed-in user's part of the bar (components/account-nav.tsx), fetched once someone is
 * signed in; if it cannot load, the bar goes without it rather than failing the page.
 */
function lazyAccountPart(pick: (m: typeof import('@/components/account-nav')) => ComponentType<AccountNavProps>) {
  return lazy(() =>
    importWithRetry(() => import('@/components/account-nav')).then(
      (m): { default: ComponentType<AccountNavProps> } => ({ default: pick(m) }),
      (): { default: ComponentType<AccountNavProps> } => ({ default: () => null }),
    ),
  );
}
export const AccountNav = lazyAccountPart((m) => m.AccountNav);
export const AccountLinks = lazyAccountPart((m) => m.AccountLinks);
