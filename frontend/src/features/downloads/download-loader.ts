import type { LoaderFunctionArgs, ShouldRevalidateFunctionArgs } from 'react-router';
import type { DownloadView } from '@domain/transfer-api';
import { fetchDownload, storedAccess } from '@/shared/downloads/download-api';
import { downloadFailureOf, type DownloadFailure } from '@/features/downloads/download-failure';
import { parseDownloadRoute, type DownloadRoute } from '@/features/downloads/download-route';

export type DownloadResult = { readonly kind: 'ready'; readonly view: DownloadView } | DownloadFailure;

export interface DownloadLoaderData {
  readonly route: DownloadRoute;
  readonly result: DownloadResult;
}

/**
 * Reads the transfer without a password. Failures are data, not thrown, because each one is a
 * state of the page (spec §4): 401 shows the password field, 410 the expiry and extension form.
 */
export async function downloadLoader({ params, request }: LoaderFunctionArgs): Promise<DownloadLoaderData> {
  const route = parseDownloadRoute(params);
  if (route.id === undefined) return { route, result: { kind: 'notFound' } };
  try {
    const access = storedAccess(route.id);
    const view = await fetchDownload(
      { id: route.id, recipient: route.recipient, ...(access ? { access } : {}) },
      request.signal,
    );
    return { route, result: { kind: 'ready', view } };
  } catch (error) {
    return { route, result: downloadFailureOf(error) };
  }
}

/**
 * The page keeps what the visitor did (unlocked with a password, downloads started); reading
 * again would drop it, so only a different address reloads. The language switch does not
 * navigate, and a `?lng=` change alone keeps the same transfer.
 */
export function shouldRevalidateDownload({ currentUrl, nextUrl }: ShouldRevalidateFunctionArgs): boolean {
  return currentUrl.pathname !== nextUrl.pathname;
}
