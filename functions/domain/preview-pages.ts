/**
 * Reading a paged previews answer (each page stays under Lambda's 6 MB). Apart from
 * domain/previews.ts so the download page's first load does not carry the preview rules.
 */
import type { PreviewsResponse } from './previews';

/**
 * Every page of a transfer's previews, asked one after another (each page's URLs live
 * `expiresIn` seconds from its own answer; the first page's lifetime is the shortest).
 */
export async function collectPreviewPages(
  fetchPage: (cursor: string | undefined) => Promise<PreviewsResponse>,
): Promise<PreviewsResponse> {
  const first = await fetchPage(undefined);
  const files = [...first.files];
  let cursor = first.nextCursor;
  while (cursor !== undefined) {
    const page = await fetchPage(cursor);
    files.push(...page.files);
    cursor = page.nextCursor;
  }
  return { expiresIn: first.expiresIn, files };
}
