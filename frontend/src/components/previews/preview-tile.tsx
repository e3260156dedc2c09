import { useTranslation } from 'react-i18next';
import type { FilePreview } from '@domain/previews';
import type { PreviewFile } from '@/components/previews/preview-types';
import { TypedIcon } from '@/components/previews/typed-icon';

/** A file's tile: its thumbnail (or typed icon) and caption; a button when the viewer can show it. */
export function Tile({
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
    // biome-ignore lint/a11y/noNoninteractiveElementInteractions: onError is the image failing to load, not a user's action
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
