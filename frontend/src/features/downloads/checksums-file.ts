/**
 * The transfer's checksums as a `SHA256SUMS` file (the format `sha256sum -c` reads), loaded
 * when the visitor asks for it so the download page's first load does not carry it. Files
 * whose SHA-256 the server is still computing get a comment line instead of a checksum.
 */
import { DOWNLOAD_REQUEST_TIMEOUT_MS } from '@domain/ui-timings';
import type { DownloadManifest, ManifestEntry } from '@domain/transfer-api';
import { apiFetch } from '@/lib/api';
import { accessBody, type DownloadAccess } from '@/shared/downloads/download-api';
import { startBrowserDownload } from '@/shared/downloads/start-browser-download';

/** GNU coreutils' escaping: a name with a backslash or a newline starts its line with `\`. */
function sumLine(hash: string, name: string): string {
  if (!/[\\\n\r]/u.test(name)) return `${hash}  ${name}`;
  const escaped = name.replace(/\\/gu, '\\\\').replace(/\n/gu, '\\n').replace(/\r/gu, '\\r');
  return `\\${hash}  ${escaped}`;
}

export function checksumsText(files: readonly ManifestEntry[]): string {
  const lines = files.map((f) =>
    f.sha256 ? sumLine(f.sha256, f.path) : `# pending: ${f.path.replace(/[\n\r]/gu, ' ')}`,
  );
  return `${lines.join('\n')}\n`;
}

/** Fetches the manifest and saves it as SHA256SUMS; answers how many files are still pending. */
export async function downloadChecksums(access: DownloadAccess, signal?: AbortSignal): Promise<{ pending: number }> {
  const manifest = await apiFetch<DownloadManifest>('/getDownload/manifest', {
    body: accessBody(access),
    timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS,
    signal,
  });
  if (signal?.aborted) return { pending: 0 };
  // not text/plain: browsers would add .txt to the conventional name
  const url = URL.createObjectURL(new Blob([checksumsText(manifest.files)], { type: 'application/octet-stream' }));
  startBrowserDownload(url, 'SHA256SUMS');
  // the click has handed the blob to the download; a later tick lets it go
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { pending: manifest.files.filter((f) => f.sha256 === null).length };
}
