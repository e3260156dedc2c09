import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilePreview } from '@domain/previews';
import { i18n } from '@/i18n/i18n';
import type { PreviewFile, PreviewsProps } from '@/components/previews/preview-types';
import { usePreviews } from '@/components/previews/use-previews';
import { PreviewViewer, type ViewerItem } from '@/components/previews/preview-viewer';
import { Player } from '@/components/previews/preview-player';
import { Tile } from '@/components/previews/preview-tile';
import '@/components/previews/previews.css';

// The download page's previews of an end-to-end encrypted transfer reuse these through this
// module, which keeps them in this one chunk (imported on their own, they split out of it).
export { Player, PreviewViewer, Tile };

/** The previews' texts (locales/previews), loaded with this chunk. */
export const ready = i18n.loadNamespaces('previews');

type Item = { readonly file: PreviewFile; readonly preview: FilePreview };

/**
 * What was sent, before it is downloaded: image thumbnails and PDF / text cards that
 * open the viewer, audio and video in the browser's players (the voice memo and recorded videos
 * labelled as such), a typed icon for everything else.
 */
export function PreviewGallery({ files, load }: PreviewsProps) {
  const { t } = useTranslation('previews');
  const headingId = useId();
  const { data, renew } = usePreviews(load);
  const [open, setOpen] = useState<number | null>(null);
  if (!data) return null;

  const byId = new Map(data.files.map((p) => [p.fileId, p]));
  const items: Item[] = files.flatMap((file) => {
    const preview = byId.get(file.fileId);
    return preview ? [{ file, preview }] : [];
  });
  const players = items.filter((i) => i.preview.kind === 'audio' || i.preview.kind === 'video');
  const tiles = items.filter((i) => i.preview.kind !== 'audio' && i.preview.kind !== 'video');
  const viewable: ViewerItem[] = tiles.flatMap(({ file, preview }) =>
    preview.url && (preview.kind === 'image' || preview.kind === 'pdf' || preview.kind === 'text')
      ? [{ fileId: file.fileId, fileName: file.fileName, kind: preview.kind, url: preview.url }]
      : [],
  );
  if (items.length === 0) return null;

  return (
    <section className="pv" aria-labelledby={headingId} data-testid="previews">
      <h2 id={headingId} className="pv-heading">
        {t('heading')}
      </h2>
      {players.length > 0 && (
        <div className="pv-players">
          {players.map(({ file, preview }) => (
            <Player key={file.fileId} file={file} preview={preview} onBroken={renew} />
          ))}
        </div>
      )}
      {tiles.length > 0 && (
        <ul className="pv-grid">
          {tiles.map(({ file, preview }) => {
            const index = viewable.findIndex((v) => v.fileId === file.fileId);
            return (
              <li
                key={file.fileId}
                className="pv-tile"
                data-testid="preview-tile"
                data-kind={preview.kind}
                data-file-name={file.fileName}
              >
                <Tile
                  file={file}
                  preview={preview}
                  onOpen={index >= 0 ? () => setOpen(index) : undefined}
                  onBroken={renew}
                />
              </li>
            );
          })}
        </ul>
      )}
      {open !== null && viewable[open] && (
        <PreviewViewer items={viewable} index={open} onIndex={setOpen} onClose={() => setOpen(null)} onBroken={renew} />
      )}
    </section>
  );
}
