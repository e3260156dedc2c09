import { useEffect, useState, type ComponentType } from 'react';
import type { PreviewsResponse } from '@domain/previews';
import { importWithRetry } from '@/lib/import-with-retry';
import type { PreviewFile } from '@/components/previews/preview-types';

export interface PreviewsProps {
  /** the transfer's files, in the page's order */
  readonly files: readonly PreviewFile[];
  /** asks the API for fresh previews (and their URLs) */
  readonly load: (signal: AbortSignal) => Promise<PreviewsResponse>;
}

/**
 * The previews (thumbnails, players, the viewer) and their texts arrive in their own
 * chunk after the page has rendered, so the download page's first load does not carry them.
 * Nothing shows until they are there, nor when they fail to load: the files stay downloadable.
 */
export function LazyPreviews(props: PreviewsProps) {
  const [Gallery, setGallery] = useState<ComponentType<PreviewsProps> | null>(null);
  useEffect(() => {
    let live = true;
    importWithRetry(() => import('@/components/previews/preview-gallery')).then(
      (m) => m.ready.then(() => live && setGallery(() => m.PreviewGallery)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return Gallery ? <Gallery {...props} /> : null;
}
