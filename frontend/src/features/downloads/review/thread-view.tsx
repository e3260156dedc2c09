import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { COMMENT_MAX_CHARS, formatTimecode, type ReviewComment } from '@domain/review';
import { formatDateTime } from '@/lib/format-date-time';
import type { Thread, WriteResult } from '@/features/downloads/review/review-logic';
import { useProblemText } from '@/features/downloads/review/problem-text';

/** A thread: its first comment with where it points, its replies, and a reply box. */
export function ThreadView({
  thread,
  currentVersion,
  pin,
  writable,
  itemRef,
  onSeek,
  onPage,
  onPin,
  onReply,
}: {
  thread: Thread;
  currentVersion: number;
  /** the marker's number of a pinned thread */
  pin: number | undefined;
  writable: boolean;
  itemRef: (el: HTMLLIElement | null) => void;
  onSeek: (seconds: number) => void;
  onPage: (page: number) => void;
  onPin: () => void;
  onReply: (body: string) => WriteResult;
}) {
  const { t } = useTranslation('reviewer');
  const { root, replies } = thread;
  const anchor = root.anchor;
  const [replying, setReplying] = useState(false);
  return (
    <li
      ref={itemRef}
      tabIndex={-1}
      className={`rv-thread${root.resolvedAt ? ' rv-thread-resolved' : ''}`}
      data-testid="review-thread"
    >
      <div className="rv-thread-anchor">
        {anchor?.kind === 'point' && pin !== undefined && (
          <button type="button" className="rv-chip rv-chip-pin" onClick={onPin} data-testid="review-thread-pin">
            {t('pinChip', { n: pin })}
          </button>
        )}
        {anchor?.kind === 'time' && (
          <button
            type="button"
            className="rv-chip"
            onClick={() => onSeek(anchor.seconds)}
            aria-label={t('seekTo', { time: formatTimecode(anchor.seconds) })}
            data-testid="review-thread-time"
            data-seconds={anchor.seconds}
          >
            {t('atTime', { time: formatTimecode(anchor.seconds) })}
          </button>
        )}
        {anchor?.kind === 'page' && (
          <button
            type="button"
            className="rv-chip"
            onClick={() => onPage(anchor.page)}
            aria-label={t('goToPage', { page: anchor.page })}
            data-testid="review-thread-page"
          >
            {t('onPage', { page: anchor.page })}
          </button>
        )}
        {root.resolvedAt !== undefined && <span className="rv-resolved">{t('resolved')}</span>}
      </div>
      <CommentView comment={root} currentVersion={currentVersion} />
      {replies.length > 0 && (
        <ol className="rv-replies">
          {replies.map((reply) => (
            <li key={reply.commentId} data-testid="review-reply">
              <CommentView comment={reply} currentVersion={currentVersion} />
            </li>
          ))}
        </ol>
      )}
      {writable &&
        (replying ? (
          <ReplyForm onReply={onReply} onDone={() => setReplying(false)} />
        ) : (
          <button
            type="button"
            className="rv-link rv-reply-open"
            onClick={() => setReplying(true)}
            data-testid="review-reply-open"
          >
            {t('reply')}
          </button>
        ))}
    </li>
  );
}

/** One comment: who wrote it (a typed name marked unverified), when, on which version, and its text as text. */
function CommentView({ comment, currentVersion }: { comment: ReviewComment; currentVersion: number }) {
  const { t, i18n } = useTranslation('reviewer');
  const author = comment.author;
  return (
    <div className="rv-comment" data-testid="review-comment">
      <p className="rv-comment-meta">
        <span className="rv-author" data-testid="review-author" data-kind={author.kind}>
          {author.kind === 'verified' ? author.email : author.kind === 'visitor' ? author.name : t('sender')}
        </span>
        {author.kind === 'visitor' && (
          <span className="rv-unverified" title={t('unverifiedHint')} data-testid="review-unverified">
            {t('unverified')}
          </span>
        )}
        <time className="rv-time" dateTime={new Date(comment.createdAt).toISOString()}>
          {formatDateTime(comment.createdAt, i18n.language)}
        </time>
        {comment.version !== currentVersion && (
          <span className="rv-version">{t('onVersion', { version: comment.version })}</span>
        )}
      </p>
      {/* plain text: React writes it as text, never as HTML */}
      <p className="rv-body" data-testid="review-comment-text">
        {comment.body}
      </p>
    </div>
  );
}

function ReplyForm({ onReply, onDone }: { onReply: (body: string) => WriteResult; onDone: () => void }) {
  const { t } = useTranslation('reviewer');
  const problemText = useProblemText();
  const fieldId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [body, setBody] = useState('');
  const [busy, setBusy] = useState(false);
  // the reviewer just asked to reply: the box takes the focus
  useEffect(() => field.current?.focus(), []);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const text = body.trim();
    if (!text) return setError(t('empty'));
    if (text.length > COMMENT_MAX_CHARS) return setError(t('tooLong', { max: COMMENT_MAX_CHARS }));
    setBusy(true);
    setError(null);
    const problem = await onReply(text);
    setBusy(false);
    if (problem) {
      if (problem.kind !== 'cancelled') setError(problemText(problem));
    } else onDone();
  }

  return (
    <form className="rv-reply-form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor={fieldId} className="rv-label">
        {t('replyLabel')}
      </label>
      <textarea
        id={fieldId}
        className="rv-textarea"
        rows={2}
        value={body}
        ref={field}
        onChange={(event) => setBody(event.target.value)}
        data-testid="review-reply-body"
      />
      {error && (
        <p className="download-notice download-notice-error" role="alert" data-testid="review-reply-error">
          {error}
        </p>
      )}
      <div className="rv-form-actions">
        <button type="button" className="btn btn-ghost btn-sm" onClick={onDone} disabled={busy}>
          {t('cancel')}
        </button>
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy} data-testid="review-reply-submit">
          {t('sendReply')}
        </button>
      </div>
    </form>
  );
}
