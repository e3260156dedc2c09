import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilePreview } from '@domain/previews';
import type { PreviewFile } from '@/components/previews/preview-types';

/**
 * The browser's own player. It keeps the URL it started with (a new one would restart it) until
 * that URL fails, e.g. lapsed after 600 s: then it takes the newest and resumes where it was.
 */
export function Player({ file, preview, onBroken }: { file: PreviewFile; preview: FilePreview; onBroken: () => void }) {
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
        // biome-ignore lint/a11y/useMediaCaption: a sender's own recording or upload comes with no caption track to offer
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
        // biome-ignore lint/a11y/useMediaCaption: a sender's own recording or upload comes with no caption track to offer
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
