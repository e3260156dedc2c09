import type { DownloadFile } from '@domain/transfer-api';

/**
 * The folder a file sat in when it was sent, from its itemPath (prefix path plus relative
 * path, spec §3): 'Photos/2024/a.jpg' -> 'Photos/2024'. Empty for a file sent on its own.
 */
export function folderOf(file: Pick<DownloadFile, 'fileName' | 'itemPath'>): string {
  const path = (file.itemPath ?? '').replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');
  if (path === '' || path === file.fileName) return '';
  const cut = path.lastIndexOf('/');
  return cut === -1 ? '' : path.slice(0, cut);
}
