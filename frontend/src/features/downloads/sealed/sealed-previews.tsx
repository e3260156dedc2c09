import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilePreview, PreviewKind, PreviewsResponse } from '@domain/previews';
import type { DownloadFile } from '@domain/transfer-api';
import type { ViewerItem } from '@/components/previews/preview-viewer';
import { formatSize } from '@/lib/format-size';
import { fetchPreviews, type DownloadAccess } from '@/shared/downloads/download-api';
import { SEALED_PLAY_MAX_BYTES } from './sealed-limits';
import { isTamper, openedBlob, openedThumbnail } from './sealed-stream';

/**
 * Aborts once the previews are really gone (use-lifetime-signal.ts's way: StrictMode's immediate
 * re-run cancels the abort). Not imported from there: sharing it would split that module out of
 * the download page's first chunk.
 */
function useGoneSignal(): AbortSignal {
  const [controller] = useState(() => new AbortController());
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    clearTimeout(pending.current);
    return () => {
      pending.current = setTimeout(() => controller.abort(), 0);
    };
  }, [controller]);
  return controller.signal;
}

/** Ask for fresh URLs when the ones held lapse within this long. */
const RENEW_BEFORE_MS = 60_000;

/**
 * The type a decrypted preview's blob: URL is made with: only safe inline types (as the server's
 * preview rules), so a file that holds HTML is never a page of this origin. The sealed object is
 * served as application/octet-stream; the kind comes with the previews' answer. Images and media
 * are read by their bytes whatever their exact type, so one type per kind serves; the browser's
 * PDF viewer needs the PDF type.
 */
function openedTypeOf(kind: PreviewKind, fileName: string): string | undefined {
  if (kind === 'pdf') return 'application/pdf';
  if (kind === 'text') return 'text/plain; charset=utf-8';
  if (kind === 'image') return 'image/png';
  const mp4 = /\.(mp4|m4v|m4a|mov)$/iu.test(fileName);
  if (kind === 'video') return mp4 ? 'video/mp4' : 'video/webm';
  if (kind === 'audio') return mp4 ? 'audio/mp4' : 'audio/mpeg';
  return undefined;
}

type Opened =
  | { readonly state: 'opening' }
  | { readonly state: 'ready'; readonly url: string }
  | { readonly state: 'failed' };

/**
 * The previews of an end-to-end encrypted transfer, in the plain gallery's tiles, players and
 * viewer: the sender's sealed thumbnails are opened here as they arrive; an image, PDF or text
 * opens in the viewer, and audio or video plays, once its whole file is opened in memory, which
 * it is only on the visitor's click and up to SEALED_PLAY_MAX_BYTES (larger ones: download).
 * Every URL made here is a blob: of the opened bytes, typed by the file's preview rule (only
 * the safe inline types), and revoked when the page goes.
 */
/** The plain gallery's parts (preview-gallery.tsx re-exports them so they stay in its chunk). */
export type GalleryParts = Pick<
  typeof import('@/components/previews/preview-gallery'),
  'Tile' | 'Player' | 'PreviewViewer'
>;

export function SealedPreviews({
  files,
  access,
  transferKey,
  gallery: { Tile, Player, PreviewViewer },
}: {
  files: readonly DownloadFile[];
  access: () => DownloadAccess;
  transferKey: Uint8Array;
  gallery: GalleryParts;
}) {
  const { t, i18n } = useTranslation('previews');
  const { t: ts } = useTranslation('sealed');
  const headingId = useId();
  const signal = useGoneSignal();
  const [data, setData] = useState<PreviewsResponse | null>(null);
  const fetchedAt = useRef(0);
  const [thumbs, setThumbs] = useState<ReadonlyMap<string, Opened>>(new Map());
  const [opened, setOpened] = useState<ReadonlyMap<string, Opened>>(new Map());
  const [open, setOpen] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const blobUrls = useRef<string[]>([]);

  const byId = new Map(files.map((f) => [f.fileId, f]));

  function keep(blob: Blob): string {
    const url = URL.createObjectURL(blob);
    blobUrls.current.push(url);
    return url;
  }

  useEffect(
    () => () => {
      for (const u of blobUrls.current) URL.revokeObjectURL(u);
    },
    [],
  );

  async function fresh(): Promise<PreviewsResponse> {
    if (data && Date.now() - fetchedAt.current < data.expiresIn * 1000 - RENEW_BEFORE_MS) return data;
    const answer = await fetchPreviews(access(), signal);
    fetchedAt.current = Date.now();
    setData(answer);
    return answer;
  }

  useEffect(() => {
    fresh().catch(() => undefined);
  }, []);

  // each sealed thumbnail, opened once
  useEffect(() => {
    if (!data) return;
    for (const p of data.files) {
      const file = byId.get(p.fileId);
      if (p.thumbnail?.status !== 'ready' || !file?.e2e || thumbs.has(p.fileId)) continue;
      setThumbs((m) => new Map(m).set(p.fileId, { state: 'opening' }));
      openedThumbnail(p.thumbnail.url, transferKey, file.e2e.salt, signal).then(
        (blob) => setThumbs((m) => new Map(m).set(p.fileId, { state: 'ready', url: keep(blob) })),
        () => {
          if (!signal.aborted) setThumbs((m) => new Map(m).set(p.fileId, { state: 'failed' }));
        },
      );
    }
  }, [data]);

  /** Opens a file whole for the viewer or a player; true once it can show. */
  async function openFile(fileId: string): Promise<boolean> {
    const file = byId.get(fileId);
    const current = opened.get(fileId);
    if (current?.state === 'ready') return true;
    if (!file?.e2e || current?.state === 'opening') return false;
    setProblem(null);
    setOpened((m) => new Map(m).set(fileId, { state: 'opening' }));
    try {
      const answer = await fresh();
      const url = answer.files.find((p) => p.fileId === fileId)?.url;
      const kind = answer.files.find((p) => p.fileId === fileId)?.kind;
      const type = kind ? openedTypeOf(kind, file.fileName) : undefined;
      if (!url || !type) throw new Error('no preview for this file');
      const blob = await openedBlob(url, transferKey, file.e2e, 'file', type, signal);
      setOpened((m) => new Map(m).set(fileId, { state: 'ready', url: keep(blob) }));
      return true;
    } catch (error) {
      if (signal.aborted) return false;
      setOpened((m) => new Map(m).set(fileId, { state: 'failed' }));
      setProblem(isTamper(error) ? ts('tampered') : ts('previewFailed'));
      return false;
    }
  }

  if (!data) return null;
  const playable = (file: DownloadFile) => (file.e2e?.plainSize ?? file.size) <= SEALED_PLAY_MAX_BYTES;
  const limit = formatSize(SEALED_PLAY_MAX_BYTES, i18n.language);
  const previews = new Map(data.files.map((p) => [p.fileId, p]));
  const items = files.flatMap((file) => {
    const preview = previews.get(file.fileId);
    return preview ? [{ file, preview }] : [];
  });
  if (items.length === 0) return null;
  const media = items.filter((i) => i.preview.kind === 'audio' || i.preview.kind === 'video');
  const tiles = items.filter((i) => i.preview.kind !== 'audio' && i.preview.kind !== 'video');
  const viewable = tiles.filter(
    ({ file, preview }) =>
      playable(file) && (preview.kind === 'image' || preview.kind === 'pdf' || preview.kind === 'text'),
  );
  const viewerItems: ViewerItem[] = viewable.map(({ file, preview }) => {
    const o = opened.get(file.fileId);
    return {
      fileId: file.fileId,
      fileName: file.fileName,
      kind: preview.kind as ViewerItem['kind'],
      url: o?.state === 'ready' ? o.url : '',
    };
  });
  const showAt = async (index: number) => {
    const item = viewable[index];
    if (item && (await openFile(item.file.fileId))) setOpen(index);
  };

  /** The tile's preview with the opened thumbnail in place of the sealed one. */
  const tilePreview = (preview: FilePreview): FilePreview => {
    const thumb = thumbs.get(preview.fileId);
    const { thumbnail: _sealed, url: _url, ...rest } = preview;
    return thumb?.state === 'ready' ? { ...rest, thumbnail: { status: 'ready', url: thumb.url } } : rest;
  };

  return (
    <section className="pv" aria-labelledby={headingId} data-testid="previews">
      <h2 id={headingId} className="pv-heading">
        {t('heading')}
      </h2>
      <p className="pv-note" data-testid="sealed-preview-limit">
        {ts('previewLimit', { size: limit })}
      </p>
      {problem && (
        <p className="download-notice download-notice-error" role="alert" data-testid="sealed-preview-problem">
          {problem}
        </p>
      )}
      {media.length > 0 && (
        <div className="pv-players">
          {media.map(({ file, preview }) => {
            const o = opened.get(file.fileId);
            if (o?.state === 'ready') {
              return (
                <Player key={file.fileId} file={file} preview={{ ...preview, url: o.url }} onBroken={() => undefined} />
              );
            }
            return (
              <figure
                key={file.fileId}
                className={`pv-player pv-player-${preview.kind}`}
                data-testid="sealed-player"
                data-file-name={file.fileName}
              >
                <figcaption className="pv-caption">
                  <span className="pv-label">{t(`kinds.${preview.icon}` as const)}</span>
                  <span className="pv-name" title={file.fileName}>
                    {file.fileName}
                  </span>
                </figcaption>
                {playable(file) ? (
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    disabled={o?.state === 'opening'}
                    onClick={() => void openFile(file.fileId)}
                    data-testid="sealed-play"
                  >
                    {o?.state === 'opening' ? ts('decrypting') : ts('play')}
                  </button>
                ) : (
                  <p className="pv-note" data-testid="sealed-too-large-to-play">
                    {ts('downloadToPlay', { size: limit })}
                  </p>
                )}
              </figure>
            );
          })}
        </div>
      )}
      {tiles.length > 0 && (
        <ul className="pv-grid">
          {tiles.map(({ file, preview }) => {
            const index = viewable.findIndex((v) => v.file.fileId === file.fileId);
            return (
              <li
                key={file.fileId}
                className="pv-tile"
                data-testid="preview-tile"
                data-kind={preview.kind}
                data-file-name={file.fileName}
                aria-busy={opened.get(file.fileId)?.state === 'opening' ? true : undefined}
              >
                <Tile
                  file={file}
                  preview={tilePreview(preview)}
                  onOpen={index >= 0 ? () => void showAt(index) : undefined}
                  onBroken={() => undefined}
                />
              </li>
            );
          })}
        </ul>
      )}
      {open !== null && viewerItems[open]?.url && (
        <PreviewViewer
          items={viewerItems}
          index={open}
          onIndex={(i) => void showAt(i)}
          onClose={() => setOpen(null)}
          onBroken={() => undefined}
        />
      )}
    </section>
  );
}
