import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { anchorKindFor, type ReviewAnchor, type ReviewDecision, type ReviewDecisionKind } from '@domain/review';
import type { ReviewFileView } from '@domain/review-api';
import type { FilePreview } from '@domain/previews';
import {
  movePoint,
  pinNumbers,
  pointFromClick,
  pointPercent,
  timeAnchor,
  type Point,
  type Thread,
  type WriteResult,
} from '@/features/downloads/review/review-logic';
import { useProblemText } from '@/features/downloads/review/problem-text';
import { CommentForm } from '@/features/downloads/review/comment-form';
import { ThreadView } from '@/features/downloads/review/thread-view';
import { DecisionBox } from '@/features/downloads/review/decision-box';

/**
 * One file under review: its preview large (pins over an image, the player of a video or audio
 * file, the browser's PDF viewer at the page asked for), its favourite toggle, its threads, the
 * comment box and the reviewer's decision on it.
 */
export function ReviewFile({
  file,
  position,
  preview,
  previewsFailed,
  onBroken,
  threads,
  favourite,
  decision,
  writable,
  onComment,
  onFavourite,
  onDecide,
}: {
  file: ReviewFileView;
  position: { n: number; total: number };
  preview: FilePreview | undefined;
  previewsFailed: boolean;
  onBroken: () => void;
  threads: readonly Thread[];
  favourite: boolean;
  decision: ReviewDecision | undefined;
  writable: boolean;
  onComment: (body: string, anchor?: ReviewAnchor, parentId?: string) => WriteResult;
  onFavourite: (on: boolean) => WriteResult;
  onDecide: (decision: ReviewDecisionKind, note: string) => WriteResult;
}) {
  const { t } = useTranslation('reviewer');
  const problemText = useProblemText();
  const titleId = useId();
  const anchorKind = anchorKindFor(preview?.kind ?? file.previewKind);
  const numbers = pinNumbers(threads);
  const media = useRef<HTMLMediaElement | null>(null);
  const markers = useRef(new Map<string, HTMLButtonElement>());
  const threadRefs = useRef(new Map<string, HTMLLIElement>());
  const [draft, setDraft] = useState<Point | null>(null);
  const [page, setPage] = useState(1);
  const [favBusy, setFavBusy] = useState(false);
  const [favError, setFavError] = useState<string | null>(null);

  const seek = (seconds: number) => {
    const el = media.current;
    if (!el) return;
    el.currentTime = seconds;
    el.focus();
  };
  const showThread = (commentId: string) => {
    const el = threadRefs.current.get(commentId);
    el?.scrollIntoView({ block: 'nearest' });
    el?.focus();
  };
  const showMarker = (commentId: string) => markers.current.get(commentId)?.focus();

  async function toggleFavourite() {
    setFavBusy(true);
    setFavError(null);
    const problem = await onFavourite(!favourite);
    setFavBusy(false);
    if (problem && problem.kind !== 'cancelled') setFavError(problemText(problem));
  }

  return (
    <article className="rv-file" aria-labelledby={titleId} data-testid="review-file" data-file-name={file.fileName}>
      <header className="rv-file-head">
        <div className="rv-file-title">
          <h3 id={titleId} title={file.fileName}>
            {file.fileName}
          </h3>
          <span className="rv-file-position muted">
            {t('fileOf', { n: position.n, total: position.total })}
            {file.version > 1 && (
              <>
                {' · '}
                <span
                  className="rv-version"
                  title={t('versionLabel', { version: file.version })}
                  data-testid="review-version"
                >
                  {t('version', { version: file.version })}
                </span>
              </>
            )}
          </span>
        </div>
        <button
          type="button"
          className={`btn btn-ghost btn-sm rv-favourite${favourite ? ' rv-favourite-on' : ''}`}
          aria-pressed={favourite}
          disabled={!writable || favBusy}
          onClick={() => void toggleFavourite()}
          data-testid="review-favourite"
        >
          <span aria-hidden="true">{favourite ? '★' : '☆'}</span>
          {favourite ? t('favourited') : t('favourite')}
        </button>
      </header>
      {favError && (
        <p className="download-notice download-notice-error" role="alert">
          {favError}
        </p>
      )}

      <div className="rv-stage-wrap">
        {!preview?.url ? (
          <p className="rv-no-preview muted" data-testid="review-no-preview">
            {preview || previewsFailed ? t('previewUnavailable') : t('previewLoading')}
          </p>
        ) : preview.kind === 'image' ? (
          <ImageStage
            url={preview.url}
            name={file.fileName}
            threads={threads}
            numbers={numbers}
            draft={draft}
            writable={writable}
            onDraft={setDraft}
            onMarker={showThread}
            markerRef={(id, el) => {
              if (el) markers.current.set(id, el);
              else markers.current.delete(id);
            }}
            onBroken={onBroken}
          />
        ) : preview.kind === 'video' || preview.kind === 'audio' ? (
          <Media
            kind={preview.kind}
            url={preview.url}
            name={file.fileName}
            mediaRef={(el) => {
              media.current = el;
            }}
            onBroken={onBroken}
          />
        ) : preview.kind === 'pdf' ? (
          <div className="rv-pdf-wrap">
            <iframe
              key={page}
              className="rv-pdf"
              src={`${preview.url}#page=${page}`}
              title={file.fileName}
              data-testid="review-pdf"
              data-page={page}
            />
            <a className="rv-link" href={`${preview.url}#page=${page}`} target="_blank" rel="noopener noreferrer">
              {t('openPdf')}
            </a>
          </div>
        ) : (
          <p className="rv-no-preview muted" data-testid="review-no-preview">
            {t('previewUnavailable')}
          </p>
        )}
      </div>

      <h4 className="rv-subheading">
        {t('comments', { count: threads.reduce((n, th) => n + 1 + th.replies.length, 0) })}
      </h4>
      {threads.length === 0 ? (
        <p className="muted" data-testid="review-no-comments">
          {t('noComments')}
        </p>
      ) : (
        <ol className="rv-threads">
          {threads.map((thread) => (
            <ThreadView
              key={thread.root.commentId}
              thread={thread}
              currentVersion={file.version}
              pin={numbers.get(thread.root.commentId)}
              writable={writable}
              itemRef={(el) => {
                if (el) threadRefs.current.set(thread.root.commentId, el);
                else threadRefs.current.delete(thread.root.commentId);
              }}
              onSeek={seek}
              onPage={setPage}
              onPin={() => showMarker(thread.root.commentId)}
              onReply={(body) => onComment(body, undefined, thread.root.commentId)}
            />
          ))}
        </ol>
      )}

      {writable && (
        <CommentForm
          anchorKind={preview?.url ? anchorKind : null}
          draft={draft}
          onClearDraft={() => setDraft(null)}
          currentTime={() => timeAnchor(media.current?.currentTime ?? 0)}
          media={media}
          viewedPage={page}
          onSubmit={async (body, anchor) => {
            const problem = await onComment(body, anchor);
            if (!problem) setDraft(null);
            return problem;
          }}
        />
      )}

      <DecisionBox
        subject={file.fileId}
        heading={t('decisionHeading')}
        decision={decision}
        version={file.version}
        writable={writable}
        onDecide={onDecide}
      />
    </article>
  );
}

/** The image with the threads' numbered markers; a click, a tap or the keyboard places the draft pin. */
function ImageStage({
  url,
  name,
  threads,
  numbers,
  draft,
  writable,
  onDraft,
  onMarker,
  markerRef,
  onBroken,
}: {
  url: string;
  name: string;
  threads: readonly Thread[];
  numbers: ReadonlyMap<string, number>;
  draft: Point | null;
  writable: boolean;
  onDraft: (p: Point | null) => void;
  onMarker: (commentId: string) => void;
  markerRef: (commentId: string, el: HTMLButtonElement | null) => void;
  onBroken: () => void;
}) {
  const { t } = useTranslation('reviewer');
  const image = useRef<HTMLImageElement>(null);
  const pin = useRef<HTMLButtonElement>(null);
  const hintId = useId();
  const focusPin = useRef(false);

  useEffect(() => {
    if (focusPin.current && draft) pin.current?.focus();
    focusPin.current = false;
  }, [draft]);

  function place(event: MouseEvent<HTMLButtonElement>) {
    const box = image.current?.getBoundingClientRect();
    // a keyboard's Enter or Space clicks with no pointer (detail 0): the pin starts in the middle
    const point = event.detail === 0 || !box ? { x: 0.5, y: 0.5 } : pointFromClick(box, event.clientX, event.clientY);
    focusPin.current = event.detail === 0;
    onDraft(point);
  }

  function movePin(event: KeyboardEvent<HTMLButtonElement>) {
    if (!draft) return;
    if (event.key === 'Escape' || event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      onDraft(null);
      return;
    }
    const next = movePoint(draft, event.key, event.shiftKey);
    if (!next) return;
    event.preventDefault();
    onDraft(next);
  }

  const img = (
    // biome-ignore lint/a11y/noNoninteractiveElementInteractions: onError is the image failing to load, not a user's action
    <img
      ref={image}
      className="rv-image"
      src={url}
      alt={name}
      onError={onBroken}
      draggable={false}
      data-testid="review-image"
    />
  );
  const at = draft ? pointPercent(draft) : null;
  return (
    <div className="rv-stage-col">
      <div className="rv-stage" data-testid="review-stage">
        {writable ? (
          <button
            type="button"
            className="rv-image-button"
            onClick={place}
            aria-describedby={hintId}
            data-testid="review-image-button"
          >
            <span className="sr-only">{t('placePin')}</span>
            {img}
          </button>
        ) : (
          img
        )}
        {threads.map(({ root }) => {
          const n = numbers.get(root.commentId);
          if (n === undefined || root.anchor?.kind !== 'point') return null;
          return (
            <button
              key={root.commentId}
              type="button"
              ref={(el) => markerRef(root.commentId, el)}
              className={`rv-marker${root.resolvedAt ? ' rv-marker-resolved' : ''}`}
              style={{ left: `${root.anchor.x * 100}%`, top: `${root.anchor.y * 100}%` }}
              aria-label={t('marker', { n })}
              onClick={() => onMarker(root.commentId)}
              data-testid="review-marker"
            >
              {n}
            </button>
          );
        })}
        {draft && at && (
          <button
            ref={pin}
            type="button"
            className="rv-marker rv-marker-draft"
            style={{ left: `${draft.x * 100}%`, top: `${draft.y * 100}%` }}
            aria-label={t('pinLabel', at)}
            aria-describedby={hintId}
            onKeyDown={movePin}
            onClick={() => pin.current?.focus()}
            data-testid="review-draft-pin"
            data-x={draft.x}
            data-y={draft.y}
          >
            <span aria-hidden="true">+</span>
          </button>
        )}
      </div>
      {writable && (
        <div className="rv-pin-bar">
          <p id={hintId} className="muted rv-pin-hint">
            {draft ? t('pinKeys') : t('pinHint')}
          </p>
          {draft ? (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => onDraft(null)}
              data-testid="review-pin-remove"
            >
              {t('removePin')}
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => {
                focusPin.current = true;
                onDraft({ x: 0.5, y: 0.5 });
              }}
              data-testid="review-place-pin"
            >
              {t('placePin')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * The browser's player of a video or audio file. It keeps the URL it started with until that
 * fails (a lapsed URL), then takes the newest and resumes where it was.
 */
function Media({
  kind,
  url,
  name,
  mediaRef,
  onBroken,
}: {
  kind: 'video' | 'audio';
  url: string;
  name: string;
  mediaRef: (el: HTMLMediaElement | null) => void;
  onBroken: () => void;
}) {
  const element = useRef<HTMLMediaElement | null>(null);
  const [src, setSrc] = useState(url);
  const resumeAt = useRef<number | null>(null);
  useEffect(() => {
    if (resumeAt.current !== null && url !== src) setSrc(url);
  }, [url, src]);
  const ref = (el: HTMLMediaElement | null) => {
    element.current = el;
    mediaRef(el);
  };
  const onError = () => {
    resumeAt.current = element.current?.currentTime ?? 0;
    if (url !== src) setSrc(url);
    else onBroken();
  };
  const onLoaded = () => {
    const at = resumeAt.current;
    resumeAt.current = null;
    if (at && element.current) element.current.currentTime = at;
  };
  return kind === 'video' ? (
    // biome-ignore lint/a11y/useMediaCaption: a sender's upload comes with no caption track to offer
    <video
      ref={ref}
      className="rv-video"
      src={src}
      controls
      preload="metadata"
      playsInline
      aria-label={name}
      onError={onError}
      onLoadedMetadata={onLoaded}
      data-testid="review-media"
    />
  ) : (
    // biome-ignore lint/a11y/useMediaCaption: a sender's upload comes with no caption track to offer
    <audio
      ref={ref}
      className="rv-audio"
      src={src}
      controls
      preload="metadata"
      aria-label={name}
      onError={onError}
      onLoadedMetadata={onLoaded}
      data-testid="review-media"
    />
  );
}
