import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { TextView } from '@/components/previews/preview-text-view';

export interface ViewerItem {
  readonly fileId: string;
  readonly fileName: string;
  readonly kind: 'image' | 'pdf' | 'text';
  readonly url: string;
}

/**
 * The full-size viewer: a modal <dialog> (showModal: the page behind is inert, so
 * focus stays inside; Escape closes), with labelled Previous / Next / Close buttons and the
 * arrow keys for the previous and next file. Images at full size, PDFs in the browser's
 * viewer, text as text (its first 256 KB).
 */
export function PreviewViewer({
  items,
  index,
  onIndex,
  onClose,
  onBroken,
}: {
  items: readonly ViewerItem[];
  index: number;
  onIndex: (index: number) => void;
  onClose: () => void;
  onBroken: () => void;
}) {
  const { t } = useTranslation('previews');
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const item = items[index]!;
  const many = items.length > 1;
  const go = (step: number) => onIndex((index + step + items.length) % items.length);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    // The close button takes the focus once the dialog is open: React's autoFocus focuses at
    // mount, while the dialog is still closed, and writes no attribute for showModal() to honour.
    closeButton.current?.focus();
    // Focus returns to the tile that opened it (the browser does so when a modal dialog closes).
  }, []);

  return (
    <dialog
      ref={dialog}
      className="pv-viewer"
      aria-labelledby={titleId}
      onClose={onClose}
      onKeyDown={(event) => {
        if (!many) return;
        // Arrow keys move between files, except inside the text viewer, where they scroll.
        if ((event.target as HTMLElement).closest('.pv-text')) return;
        if (event.key === 'ArrowRight') {
          event.preventDefault();
          go(1);
        } else if (event.key === 'ArrowLeft') {
          event.preventDefault();
          go(-1);
        }
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) dialog.current?.close();
      }}
      data-testid="preview-viewer"
    >
      <header className="pv-viewer-head">
        <h2 id={titleId} className="pv-viewer-title" title={item.fileName}>
          {item.fileName}
        </h2>
        {many && (
          <span className="pv-viewer-position">{t('viewer.position', { n: index + 1, total: items.length })}</span>
        )}
        <button
          type="button"
          className="pv-viewer-button"
          aria-label={t('viewer.close')}
          onClick={() => dialog.current?.close()}
          data-testid="preview-close"
          ref={closeButton}
        >
          <span aria-hidden="true">×</span>
        </button>
      </header>
      <div className="pv-viewer-body">
        {item.kind === 'image' && (
          // biome-ignore lint/a11y/noNoninteractiveElementInteractions: onError is the image failing to load, not a user's action
          <img
            key={item.fileId}
            className="pv-full"
            src={item.url}
            alt={item.fileName}
            onError={onBroken}
            data-testid="preview-full-image"
          />
        )}
        {item.kind === 'pdf' && (
          <iframe key={item.fileId} className="pv-pdf" src={item.url} title={item.fileName} data-testid="preview-pdf" />
        )}
        {item.kind === 'text' && <TextView key={item.fileId} url={item.url} name={item.fileName} onBroken={onBroken} />}
      </div>
      {many && (
        <footer className="pv-viewer-nav">
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => go(-1)}
            aria-label={t('viewer.previous')}
            data-testid="preview-previous"
          >
            <span aria-hidden="true">‹</span> {t('viewer.previousShort')}
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => go(1)}
            aria-label={t('viewer.next')}
            data-testid="preview-next"
          >
            {t('viewer.nextShort')} <span aria-hidden="true">›</span>
          </button>
        </footer>
      )}
    </dialog>
  );
}
