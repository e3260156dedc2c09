import type { Language } from '@/i18n/languages';
import { DOWNLOAD_PAGE_NAMESPACES, type DownloadPageNamespace, type LazyNamespace } from '@/i18n/namespace-names';

function isDownloadPageNamespace(ns: LazyNamespace): ns is DownloadPageNamespace {
  return (DOWNLOAD_PAGE_NAMESPACES as readonly string[]).includes(ns);
}

/** The namespace's catalogue in one language (its table of loaders is loaded on first use). */
export async function loadNamespace(
  ns: LazyNamespace,
  language: Language,
): Promise<{ default: Record<string, unknown> }> {
  if (isDownloadPageNamespace(ns)) {
    const { loadDownloadNamespaceFile } = await import('@/i18n/download-namespace-files');
    return loadDownloadNamespaceFile(ns, language);
  }
  if (ns === 'sender-review') {
    const { loadReviewNamespaceFile } = await import('@/i18n/review-namespace-files');
    return loadReviewNamespaceFile(language);
  }
  const { loadNamespaceFile } = await import('@/i18n/namespace-files');
  return loadNamespaceFile(ns, language);
}
