import type { LoaderFunctionArgs } from 'react-router';
import { tokenSchema } from '@domain/transfer-api';
import { checkExtension } from '@/features/extension/api/check-extension';

/** Spec §4 "Extension link: extended or expired". */
export type ExtensionResult =
  | { readonly status: 'extended'; readonly expiryDate: number }
  | { readonly status: 'expired' };

/**
 * Posts the link's token once per visit. It runs in the route loader rather than an effect, so
 * React's StrictMode (which runs effects twice in development) cannot send it twice. Any
 * failure, be it a used or unknown token (410, 404), a malformed one (400) or no answer, shows
 * 'Link expired': the page has nothing else to offer.
 */
export async function extensionLoader({ params, request }: LoaderFunctionArgs): Promise<ExtensionResult> {
  const token = tokenSchema.safeParse(params.id);
  if (!token.success) return { status: 'expired' };
  try {
    const { expiryDate } = await checkExtension(token.data, request.signal);
    return Number.isFinite(expiryDate) ? { status: 'extended', expiryDate } : { status: 'expired' };
  } catch {
    return { status: 'expired' };
  }
}

/** Never post the token again for the same address (search changes, same-page links). */
export function shouldRevalidateExtension({ currentUrl, nextUrl }: { currentUrl: URL; nextUrl: URL }): boolean {
  return currentUrl.pathname !== nextUrl.pathname;
}
