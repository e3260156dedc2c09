import { useEffect, useId, useState, type FormEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { COMMENT_MAX_CHARS, formatTimecode, type ReviewAnchor } from '@domain/review';
import { pageOf, pointPercent, type Point, type WriteResult } from '@/features/downloads/review/review-logic';
import { useProblemText } from '@/features/downloads/review/problem-text';

/**
 * A new thread on the file: the text (plain, up to COMMENT_MAX_CHARS) and where it points: the
 * draft pin on an image, the player's current time on video and audio, a page of a PDF.
 */
export function CommentForm({
  anchorKind,
  draft,
  onClearDraft,
  currentTime,
  media,
  viewedPage,
  onSubmit,
}: {
  anchorKind: ReviewAnchor['kind'] | null;
  draft: Point | null;
  onClearDraft: () => void;
  currentTime: () => ReviewAnchor;
  media: RefObject<HTMLMediaElement | null>;
  viewedPage: number;
  onSubmit: (body: string, anchor?: ReviewAnchor) => WriteResult;
}) {
  const { t } = useTranslation('reviewer');
  const problemText = useProblemText();
  const fieldId = useId();
  const countId = useId();
  const errorId = useId();
  const [body, setBody] = useState('');
  const [atTime, setAtTime] = useState(true);
  const [seconds, setSeconds] = useState(0);
  const [page, setPage] = useState(String(viewedPage));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // the PDF shown at another page (a thread's "page 3"): the page field follows it
  useEffect(() => setPage(String(viewedPage)), [viewedPage]);

  // the player's time, live, next to the checkbox
  useEffect(() => {
    const el = media.current;
    if (anchorKind !== 'time' || !el) return;
    const update = () => setSeconds(el.currentTime);
    update();
    el.addEventListener('timeupdate', update);
    el.addEventListener('seeked', update);
    return () => {
      el.removeEventListener('timeupdate', update);
      el.removeEventListener('seeked', update);
    };
  }, [anchorKind, media]);

  const left = COMMENT_MAX_CHARS - body.trim().length;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const text = body.trim();
    if (!text) return setError(t('empty'));
    if (text.length > COMMENT_MAX_CHARS) return setError(t('tooLong', { max: COMMENT_MAX_CHARS }));
    let anchor: ReviewAnchor | undefined;
    if (anchorKind === 'point' && draft) anchor = { kind: 'point', x: draft.x, y: draft.y };
    if (anchorKind === 'time' && atTime) anchor = currentTime();
    if (anchorKind === 'page') {
      const n = pageOf(page);
      if (n === null) return setError(t('pageInvalid'));
      anchor = { kind: 'page', page: n };
    }
    setBusy(true);
    setError(null);
    const problem = await onSubmit(text, anchor);
    setBusy(false);
    if (problem) {
      if (problem.kind !== 'cancelled') setError(problemText(problem));
    } else setBody('');
  }

  const at = draft ? pointPercent(draft) : null;
  return (
    <form
      className="rv-comment-form"
      onSubmit={(event) => void submit(event)}
      noValidate
      data-testid="review-comment-form"
    >
      <label htmlFor={fieldId} className="rv-label">
        {t('commentLabel')}
      </label>
      <textarea
        id={fieldId}
        className="rv-textarea"
        value={body}
        rows={3}
        placeholder={t('commentPlaceholder')}
        onChange={(event) => setBody(event.target.value)}
        aria-describedby={`${countId}${error ? ` ${errorId}` : ''}`}
        aria-invalid={error ? true : undefined}
        data-testid="review-comment-body"
      />
      <div className="rv-form-row">
        {anchorKind === 'point' && at && (
          <span className="rv-anchor-chip" data-testid="review-comment-pin">
            {t('pinned', at)}
            <button type="button" className="rv-link" onClick={onClearDraft}>
              {t('removePin')}
            </button>
          </span>
        )}
        {anchorKind === 'time' && (
          <label className="rv-check">
            <input
              type="checkbox"
              checked={atTime}
              onChange={(event) => setAtTime(event.target.checked)}
              data-testid="review-comment-at-time"
            />
            <span>
              {t('useTime')} (
              <span data-testid="review-comment-time">{t('atTime', { time: formatTimecode(seconds) })}</span>)
            </span>
          </label>
        )}
        {anchorKind === 'page' && (
          <label className="rv-page-field">
            <span>{t('pageLabel')}</span>
            <input
              type="number"
              inputMode="numeric"
              min={1}
              max={100000}
              step={1}
              value={page}
              onChange={(event) => setPage(event.target.value)}
              data-testid="review-comment-page"
            />
          </label>
        )}
        <span id={countId} className={`rv-count${left < 0 ? ' rv-count-over' : ''}`} aria-live="polite">
          {left < 200 ? t('charsLeft', { count: left }) : ''}
        </span>
      </div>
      {error && (
        <p
          id={errorId}
          className="download-notice download-notice-error"
          role="alert"
          data-testid="review-comment-error"
        >
          {error}
        </p>
      )}
      <div className="rv-form-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy} data-testid="review-comment-submit">
          {busy && <span className="download-spinner" aria-hidden="true" />}
          {t('send')}
        </button>
      </div>
    </form>
  );
}
