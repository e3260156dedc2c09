import { useEffect, useState, type ComponentType } from 'react';
import { importWithRetry } from '@/lib/import-with-retry';
import type { PreviewsProps } from '@/components/previews/preview-types';

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
