import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { ReviewAnchor, ReviewAuthor, ReviewComment, ReviewDecision } from '@domain/review';
import { COMMENT_MAX_CHARS, formatTimecode } from '@domain/review';
import type { SenderReviewView } from '@domain/review-api';
import { groupByFile, isUnread, transferDecisions, type ReviewThread } from '@domain/review-export';
import { errorTextOf } from '@/i18n/error-keys';
import { i18n } from '@/i18n/i18n';
import { ApiError } from '@/lib/api';
import { useLoad } from '@/lib/use-load';
import { changeReview, fetchReview, markReviewRead, postSenderComment, resolveThread } from '../api/review-api';
import { fetchTransferPreviews } from '../api/transfers-api';
import { formatDateTime } from '@/lib/format-date-time';
import { exportReviewCsv, exportReviewPdf } from '../review-export-files';
import '@/styles/review.css';

/** The review's texts (locales/sender-review), loaded with this chunk. */
export const ready = i18n.loadNamespaces('sender-review');

export interface ReviewSectionProps {
  readonly slug: string;
  readonly link: string;
  /** the transfer's name as the modal's title reads it, for the PDF */
  readonly title: string;
  /** expired or deleted: the review is read only and previews are gone */
  readonly expired: boolean;
  /** the transfer's detail has review settings (review on) */
  readonly enabled: boolean;
  /** something the lists show changed (a read, a reply, the settings): they fetch again */
  onChanged(): void;
  /**
   * hooks/use-transfer-list.ts onTransferActivity, handed down by the modal: imported here, it
   * would split the list's modules into one more file on the dashboard's first load
   */
  subscribe(listener: (slugs: readonly string[]) => void): () => void;
}

type Busy = string | null;

/** Thumbnails being made: asked again this often, at most this many times. */
const THUMB_POLL_MS = 2_000;
const THUMB_POLLS = 30;

/**
 * The TransferModal's review (loaded with its own chunk): on/off, close and re-open, every file's
 * threads with their anchors, the sender's replies, resolve and re-open, each reviewer's
 * decisions and the favourites, and the CSV and PDF exports. Opening it marks the review read.
 */
export function ReviewSection({ slug, link, title, expired, enabled, onChanged, subscribe }: ReviewSectionProps) {
  const { t, i18n: instance } = useTranslation('sender-review');
  const { t: tApp } = useTranslation();
  const lng = instance.resolvedLanguage ?? 'en';
  const headingId = useId();
  const sectionRef = useRef<HTMLElement>(null);
  // review off (the transfer's detail says so): nothing to fetch until the sender turns it on
  const [on, setOn] = useState(enabled);
  useEffect(() => setOn(enabled), [enabled]);
  const load = useLoad((signal) => fetchReview(slug, signal), [slug], {
    enabled: on,
    refused: (e) => e instanceof ApiError && (e.code === 'review_off' || e.status === 404),
  });
  const thumbs = useThumbnails(slug, !expired && load.state === 'ready');
  const [busy, setBusy] = useState<Busy>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const view = load.state === 'ready' ? load.data : null;
  const { setData } = load;

  // New activity from the bell's poll: fetch again without a loading flash.
  useEffect(
    () =>
      subscribe((slugs) => {
        if (slugs.includes(slug)) fetchReview(slug).then(setData, () => undefined);
      }),
    [slug, setData, subscribe],
  );

  // Marks what is on screen read; the list's unread badge goes with the next fetch.
  const readUpTo = useRef(0);
  useEffect(() => {
    if (!view) return;
    const latest = Math.max(0, ...view.comments.filter((c) => isUnread(c, view.readAt)).map((c) => c.createdAt));
    if (latest <= readUpTo.current) return;
    readUpTo.current = latest;
    markReviewRead(slug).then(onChanged, () => undefined);
  }, [view, slug, onChanged]);

  // A bell item (or the review mail's link) opens the modal at its review: scrolled there once.
  const { hash } = useLocation();
  const scrolledFor = useRef('');
  const shown = view !== null;
  useEffect(() => {
    if (!shown || hash !== '#review' || scrolledFor.current === slug) return;
    scrolledFor.current = slug;
    sectionRef.current?.scrollIntoView({ block: 'start' });
  }, [shown, hash, slug]);

  const act = useCallback(
    async (key: string, call: () => Promise<unknown>, after: 'fetch' | 'on' | 'off' = 'fetch') => {
      setBusy(key);
      setProblem(null);
      try {
        await call();
        // turned on: the load starts; turned off: the "off" state, nothing fetched
        if (after === 'fetch') setData(await fetchReview(slug));
        else setOn(after === 'on');
        onChanged();
      } catch (error) {
        const text = errorTextOf(error);
        setProblem(tApp(text.key, text.params));
      } finally {
        setBusy(null);
      }
    },
    [slug, setData, tApp, onChanged],
  );

  const settingsAction = (body: { enabled?: boolean; closed?: boolean }, key: string) =>
    act(key, () => changeReview(slug, body), body.enabled === undefined ? 'fetch' : body.enabled ? 'on' : 'off');

  const exportAs = (kind: 'csv' | 'pdf') => {
    if (!view) return;
    setBusy(`export-${kind}`);
    setProblem(null);
    const run =
      kind === 'csv' ? Promise.resolve(exportReviewCsv(slug, view)) : exportReviewPdf({ slug, view, title, link });
    run.catch(() => setProblem(t('export.failed'))).finally(() => setBusy(null));
  };

  const off = !on || load.state === 'refused' || (view !== null && !view.settings.enabled);
  const closed = view?.settings.closedAt !== undefined;
  const writable = view?.settings.writable === true;
  const state = off ? 'off' : expired ? 'expired' : closed ? 'closed' : 'open';

  return (
    <section
      ref={sectionRef}
      id="review"
      className="tr-section rv"
      aria-labelledby={headingId}
      aria-busy={load.state === 'loading' || undefined}
      data-testid="review-section"
      data-state={off || load.state === 'ready' ? state : load.state}
    >
      <h3 id={headingId}>
        {t('title')}{' '}
        {(load.state === 'ready' || off) && (
          <span
            className={`pill ${state === 'open' ? 'pill-success' : state === 'closed' ? 'pill-warn' : 'pill-muted'}`}
            data-testid="review-state"
          >
            {t(`state.${state}`)}
          </span>
        )}
      </h3>
      {!off && load.state === 'loading' && (
        <p className="muted" role="status">
          {t('loading')}
        </p>
      )}
      {load.state === 'failed' && (
        <div className="tr-notice tr-notice-error" role="alert">
          <span>{t('loadFailed')}</span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={load.reload}>
            {t('retry')}
          </button>
        </div>
      )}
      {off && (
        <>
          <p className="muted">{t('offIntro')}</p>
          {!expired && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={busy !== null}
              onClick={() => void settingsAction({ enabled: true }, 'on')}
              data-testid="review-turn-on"
            >
              {busy === 'on' ? t('working') : t('actions.turnOn')}
            </button>
          )}
        </>
      )}
      {view && !off && (
        <>
          {expired ? (
            <p className="muted">{t('expiredNote')}</p>
          ) : closed && view.settings.closedAt !== undefined ? (
            <p className="muted">{t('closedNote', { date: formatDateTime(view.settings.closedAt, lng) })}</p>
          ) : null}
          <div className="rv-toolbar">
            {!expired && (
              <>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  disabled={busy !== null}
                  onClick={() => void settingsAction({ closed: !closed }, 'close')}
                  data-testid={closed ? 'review-reopen' : 'review-close'}
                >
                  {busy === 'close' ? t('working') : closed ? t('actions.reopen') : t('actions.close')}
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  disabled={busy !== null}
                  onClick={() => void settingsAction({ enabled: false }, 'off')}
                  data-testid="review-turn-off"
                >
                  {busy === 'off' ? t('working') : t('actions.turnOff')}
                </button>
              </>
            )}
            <span className="rv-toolbar-gap" />
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={busy !== null}
              onClick={() => exportAs('csv')}
              data-testid="review-export-csv"
            >
              {busy === 'export-csv' ? t('working') : t('export.csv')}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={busy !== null}
              onClick={() => exportAs('pdf')}
              data-testid="review-export-pdf"
            >
              {busy === 'export-pdf' ? t('working') : t('export.pdf')}
            </button>
          </div>
          {problem && (
            <p className="tr-notice tr-notice-error" role="alert" data-testid="review-problem">
              {problem}
            </p>
          )}
          <ReviewBody
            view={view}
            thumbs={thumbs}
            writable={writable}
            busy={busy}
            lng={lng}
            onReply={(thread, body) =>
              act(`reply-${thread.root.commentId}`, () =>
                postSenderComment(slug, { fileId: thread.root.fileId, parentId: thread.root.commentId, body }),
              )
            }
            onResolve={(thread, resolved) =>
              act(`resolve-${thread.root.commentId}`, () => resolveThread(slug, thread.root.commentId, { resolved }))
            }
          />
        </>
      )}
    </section>
  );
}

interface BodyProps {
  readonly view: SenderReviewView;
  readonly thumbs: ReadonlyMap<string, string>;
  readonly writable: boolean;
  readonly busy: Busy;
  readonly lng: string;
  onReply(thread: ReviewThread, body: string): Promise<void>;
  onResolve(thread: ReviewThread, resolved: boolean): Promise<void>;
}

function ReviewBody({ view, thumbs, writable, busy, lng, onReply, onResolve }: BodyProps) {
  const { t } = useTranslation('sender-review');
  const ids = useId();
  const overall = transferDecisions(view.decisions);
  return (
    <>
      <div className="rv-whole" data-testid="review-whole">
        <h4 id={`${ids}-whole`}>{t('whole.title')}</h4>
        {overall.length === 0 ? (
          <p className="muted">{t('whole.none')}</p>
        ) : (
          <Decisions decisions={overall} lng={lng} labelledBy={`${ids}-whole`} />
        )}
      </div>
      {groupByFile(view).map((group) => {
        const current = group.file.versionFileIds.at(-1) ?? group.file.fileId;
        const thumb = thumbs.get(current);
        const headId = `${ids}-${group.file.fileId}`;
        return (
          <article
            key={group.file.fileId}
            className="rv-file"
            aria-labelledby={headId}
            data-testid="review-file"
            data-file-id={group.file.fileId}
          >
            <div className="rv-file-head">
              {thumb ? <img className="rv-thumb" src={thumb} alt="" width={56} height={56} /> : null}
              <div>
                <h4 id={headId} className="tr-break">
                  {group.file.fileName}
                </h4>
                <p className="muted rv-meta">
                  {t('version', { version: group.file.version })}
                  {group.favourites.length > 0 && (
                    <>
                      {' · '}
                      <span data-testid="review-favourites" title={group.favourites.join(', ')}>
                        {t('favourites', { count: group.favourites.length })}
                      </span>
                    </>
                  )}
                </p>
              </div>
            </div>
            {group.decisions.length > 0 && <Decisions decisions={group.decisions} lng={lng} labelledBy={headId} />}
            {group.threads.length === 0 ? (
              <p className="muted">{t('threads.none')}</p>
            ) : (
              <ol className="rv-threads" aria-label={t('threads.label', { file: group.file.fileName })}>
                {group.threads.map((thread) => (
                  <Thread
                    key={thread.root.commentId}
                    thread={thread}
                    thumb={thumb}
                    readAt={view.readAt}
                    writable={writable}
                    busy={busy}
                    lng={lng}
                    onReply={onReply}
                    onResolve={onResolve}
                  />
                ))}
              </ol>
            )}
          </article>
        );
      })}
    </>
  );
}

function useAuthorText() {
  const { t } = useTranslation('sender-review');
  return (author: ReviewAuthor) =>
    author.kind === 'verified'
      ? author.email
      : author.kind === 'visitor'
        ? t('author.unverified', { name: author.name })
        : t('author.you');
}

function Decisions({
  decisions,
  lng,
  labelledBy,
}: {
  decisions: readonly ReviewDecision[];
  lng: string;
  labelledBy: string;
}) {
  const { t } = useTranslation('sender-review');
  const authorText = useAuthorText();
  return (
    <ul className="rv-decisions" aria-labelledby={labelledBy} data-testid="review-decisions">
      {decisions.map((d) => (
        <li key={d.reviewer} data-testid="review-decision" data-decision={d.decision}>
          <span className={`pill ${d.decision === 'approved' ? 'pill-success' : 'pill-warn'}`}>
            {t(`decision.${d.decision}`)}
          </span>{' '}
          <span className="tr-break">{authorText(d.author)}</span>{' '}
          <span className="muted">
            {d.version > 0 && `${t('version', { version: d.version })} · `}
            {formatDateTime(d.at, lng)}
          </span>
          {d.note && <span className="rv-note"> {d.note}</span>}
        </li>
      ))}
    </ul>
  );
}

function AnchorLabel({ anchor, pin, thumb }: { anchor?: ReviewAnchor; pin?: number; thumb?: string }) {
  const { t } = useTranslation('sender-review');
  if (!anchor) return null;
  const text =
    anchor.kind === 'time'
      ? t('anchor.time', { time: formatTimecode(anchor.seconds) })
      : anchor.kind === 'page'
        ? t('anchor.page', { page: anchor.page })
        : t('anchor.pin', { pin: pin ?? 1 });
  return (
    <span className="rv-anchor" data-testid="review-anchor">
      {anchor.kind === 'point' && (
        // where the pin is on the image: a small copy of the thumbnail with a dot (the text says which pin)
        <span className="rv-pin-thumb" aria-hidden="true">
          {thumb && <img src={thumb} alt="" width={32} height={32} />}
          <span className="rv-pin-dot" style={{ left: `${anchor.x * 100}%`, top: `${anchor.y * 100}%` }} />
        </span>
      )}
      {text}
    </span>
  );
}

function Thread({
  thread,
  thumb,
  readAt,
  writable,
  busy,
  lng,
  onReply,
  onResolve,
}: {
  thread: ReviewThread;
  thumb: string | undefined;
  readAt: number;
  writable: boolean;
  busy: Busy;
  lng: string;
  onReply: BodyProps['onReply'];
  onResolve: BodyProps['onResolve'];
}) {
  const { t } = useTranslation('sender-review');
  const [replying, setReplying] = useState(false);
  const [text, setText] = useState('');
  const fieldId = useId();
  const { root } = thread;
  const resolved = root.resolvedAt !== undefined;
  const authorText = useAuthorText();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = text.trim();
    if (!body) return;
    await onReply(thread, body);
    setText('');
    setReplying(false);
  };

  return (
    <li
      className={resolved ? 'rv-thread rv-thread-resolved' : 'rv-thread'}
      data-testid="review-thread"
      data-resolved={resolved}
    >
      <div className="rv-thread-head">
        <AnchorLabel anchor={root.anchor} pin={thread.pin} thumb={thumb} />
        {resolved && <span className="pill pill-muted">{t('resolved')}</span>}
      </div>
      <Comment comment={root} unread={isUnread(root, readAt)} lng={lng} authorText={authorText} />
      {thread.replies.length > 0 && (
        <ul className="rv-replies">
          {thread.replies.map((reply) => (
            <li key={reply.commentId} data-testid="review-reply">
              <Comment comment={reply} unread={isUnread(reply, readAt)} lng={lng} authorText={authorText} />
            </li>
          ))}
        </ul>
      )}
      {writable && (
        <div className="rv-thread-actions">
          {!replying && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={busy !== null}
              onClick={() => setReplying(true)}
              data-testid="review-reply-open"
            >
              {t('reply')}
            </button>
          )}
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={busy !== null}
            onClick={() => void onResolve(thread, !resolved)}
            data-testid={resolved ? 'review-reopen-thread' : 'review-resolve'}
          >
            {busy === `resolve-${root.commentId}` ? t('working') : resolved ? t('reopenThread') : t('resolve')}
          </button>
        </div>
      )}
      {writable && replying && (
        <form className="rv-reply-form" onSubmit={(e) => void submit(e)}>
          <label htmlFor={fieldId} className="rv-reply-label">
            {t('replyLabel', { who: authorText(root.author) })}
          </label>
          <textarea
            id={fieldId}
            className="field-input rv-reply-input"
            value={text}
            maxLength={COMMENT_MAX_CHARS}
            rows={2}
            // biome-ignore lint/a11y/noAutofocus: the sender just asked to reply here
            autoFocus
            onChange={(e) => setText(e.target.value)}
            data-testid="review-reply-input"
          />
          <div className="rv-thread-actions">
            <button
              type="submit"
              className="btn btn-primary btn-sm"
              disabled={busy !== null || text.trim() === ''}
              data-testid="review-reply-send"
            >
              {busy === `reply-${root.commentId}` ? t('working') : t('send')}
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setReplying(false)}>
              {t('cancel')}
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

function Comment({
  comment,
  unread,
  lng,
  authorText,
}: {
  comment: ReviewComment;
  unread: boolean;
  lng: string;
  authorText: (a: ReviewAuthor) => string;
}) {
  const { t } = useTranslation('sender-review');
  return (
    <div className="rv-comment" data-testid="review-comment" data-unread={unread || undefined}>
      <p className="rv-comment-meta">
        <strong className="tr-break">{authorText(comment.author)}</strong>{' '}
        <span className="muted">
          {formatDateTime(comment.createdAt, lng)}
          {comment.version > 1 && ` · ${t('version', { version: comment.version })}`}
        </span>
        {unread && <span className="pill pill-warn rv-new">{t('new')}</span>}
      </p>
      <p className="rv-comment-body">{comment.body}</p>
    </div>
  );
}

/** Thumbnail URLs by the file's current id, while the transfer has previews (asked again while some are being made). */
function useThumbnails(slug: string, enabled: boolean): ReadonlyMap<string, string> {
  const [thumbs, setThumbs] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let polls = 0;
    const ask = () =>
      fetchTransferPreviews(slug, abort.signal).then(
        (answer) => {
          if (abort.signal.aborted) return;
          const map = new Map<string, string>();
          for (const f of answer.files) if (f.thumbnail?.status === 'ready') map.set(f.fileId, f.thumbnail.url);
          setThumbs(map);
          if (answer.files.some((f) => f.thumbnail?.status === 'pending') && polls < THUMB_POLLS) {
            polls += 1;
            timer = setTimeout(ask, THUMB_POLL_MS);
          }
        },
        // thumbnails are a help: the review reads without them
        () => undefined,
      );
    void ask();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [slug, enabled]);
  return thumbs;
}
