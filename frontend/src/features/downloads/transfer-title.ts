import type { TFunction } from 'i18next';
import type { DownloadView } from '@domain/transfer-api';

/**
 * The page's heading: the API titles a transfer with its first file's name, or 'n files' in
 * English when there are several; the latter is said in the visitor's language.
 */
export function transferTitle(view: Pick<DownloadView, 'title' | 'fileCount'>, t: TFunction): string {
  return view.fileCount > 1 && view.title === `${view.fileCount} files`
    ? t('download.titleMany', { n: view.fileCount })
    : view.title;
}
