import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilePreview } from '@domain/previews';
import { i18n } from '@/i18n/i18n';
import type { PreviewFile, PreviewsProps } from '@/components/previews/preview-types';
import { usePreviews } from '@/components/previews/use-previews';
import { PreviewViewer, type ViewerItem } from '@/components/previews/preview-viewer';
import { TypedIcon } from '@/components/previews/typed-icon';
import '@/components/previews/previews.css';

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

function Tile({
  file,
  preview,
  onOpen,
  onBroken,
}: {
  file: PreviewFile;
  preview: FilePreview;
  onOpen: (() => void) | undefined;
  onBroken: () => void;
}) {
  const { t } = useTranslation('previews');
  const thumb = preview.thumbnail?.status === 'ready' ? preview.thumbnail.url : undefined;
  const face = thumb ? (
    <img
      className="pv-thumb"
      src={thumb}
      alt={file.fileName}
      loading="lazy"
      decoding="async"
      width={200}
      height={200}
      onError={onBroken}
      data-testid="preview-thumbnail"
    />
  ) : (
    <span className="pv-icon">
      <TypedIcon kind={preview.icon} />
      {preview.thumbnail?.status === 'pending' && <span className="pv-pending">{t('thumbnailPending')}</span>}
    </span>
  );
  // A thumbnail's alt text is the file's name, so the caption does not say it to screen readers twice.
  const caption = (
    <span className="pv-caption">
      <span className="pv-name" title={file.fileName} aria-hidden={thumb ? true : undefined}>
        {file.fileName}
      </span>
      <span className="pv-kind">{t(`kinds.${preview.icon}` as const)}</span>
    </span>
  );
  if (!onOpen) {
    return (
      <div className="pv-card">
        {face}
        {caption}
      </div>
    );
  }
  return (
    <button type="button" className="pv-card pv-open" onClick={onOpen} data-testid="preview-open">
      <span className="sr-only">{t('open')} </span>
      {face}
      {caption}
    </button>
  );
}

/**
 * The browser's own player. It keeps the URL it started with (a new one would restart it) until
 * that URL fails, e.g. lapsed after 600 s: then it takes the newest and resumes where it was.
 */
function Player({ file, preview, onBroken }: { file: PreviewFile; preview: FilePreview; onBroken: () => void }) {
  const { t } = useTranslation('previews');
  const media = useRef<HTMLMediaElement | null>(null);
  const [src, setSrc] = useState(preview.url);
  const resumeAt = useRef<number | null>(null);
  const labelId = useId();

  useEffect(() => {
    if (resumeAt.current !== null && preview.url && preview.url !== src) setSrc(preview.url);
  }, [preview.url, src]);

  const onError = () => {
    resumeAt.current = media.current?.currentTime ?? 0;
    if (preview.url && preview.url !== src) setSrc(preview.url);
    else onBroken();
  };
  const onLoaded = () => {
    const at = resumeAt.current;
    resumeAt.current = null;
    if (at && media.current) media.current.currentTime = at;
  };
  const label =
    preview.recording === 'voice'
      ? t('voiceMemo')
      : preview.recording === 'video'
        ? t('recordedVideo')
        : t(`kinds.${preview.icon}` as const);
  return (
    <figure
      className={`pv-player pv-player-${preview.kind}`}
      data-testid="preview-player"
      data-kind={preview.kind}
      data-recording={preview.recording ?? ''}
      data-file-name={file.fileName}
    >
      <figcaption id={labelId} className="pv-caption">
        <span className="pv-label">{label}</span>
        <span className="pv-name" title={file.fileName}>
          {file.fileName}
        </span>
      </figcaption>
      {preview.kind === 'video' ? (
        <video
          ref={(el) => {
            media.current = el;
          }}
          src={src}
          controls
          preload="metadata"
          playsInline
          aria-labelledby={labelId}
          onError={onError}
          onLoadedMetadata={onLoaded}
        />
      ) : (
        <audio
          ref={(el) => {
            media.current = el;
          }}
          src={src}
          controls
          preload="metadata"
          aria-labelledby={labelId}
          onError={onError}
          onLoadedMetadata={onLoaded}
        />
      )}
    </figure>
  );
}
