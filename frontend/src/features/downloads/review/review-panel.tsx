import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReviewAnchor, ReviewDecisionKind } from '@domain/review';
import type { RecipientReviewView } from '@domain/review-api';
import { fetchPreviews, storeAccess, type DownloadAccess } from '@/shared/downloads/download-api';
import {
  fetchReview,
  postComment,
  postDecision,
  postFavourite,
  type Visitor,
  type Writer,
} from '@/features/downloads/review/review-calls';
import {
  commentCount,
  decisionOn,
  problemOf,
  threadsOf,
  type ReviewProblem,
  type WriteResult,
} from '@/features/downloads/review/review-logic';
import { useReviewPreviews } from '@/features/downloads/review/review-previews';
import { storedVisitor } from '@/features/downloads/review/visitor-store';
import { IdentityDialog } from '@/features/downloads/review/identity-dialog';
import { ReviewFile } from '@/features/downloads/review/review-file';
import { DecisionBox } from '@/features/downloads/review/decision-box';
import { useProblemText } from '@/features/downloads/review/problem-text';
import '@/features/downloads/review/review.css';

/** The threads are asked for again this often while the tab is visible (and after every write). */
export const REVIEW_POLL_MS = 15_000;

/**
 * The review of a transfer (the sender turned it on): each file's preview large with its
 * threads and a comment box (a pin on an image, the player's time on video and audio, a page on
 * a PDF), a favourite toggle and a decision per file and for the whole transfer. Before the
 * first write the reviewer says who they are once: a verified address or a typed name.
 */
export function ReviewPanel({
  expiryDate,
  access,
}: {
  /** the transfer's: once past, the review reads as expired (read only) */
  expiryDate: number;
  access: () => DownloadAccess;
}) {
  // suspends (the page's Suspense shows nothing) until the catalogue is in: the first paint is translated
  const { t } = useTranslation('reviewer');
  const problemText = useProblemText();
  const headingId = useId();
  // the id the page's address names (and keeps its session under)
  const transferId = access().id;
  const [data, setData] = useState<RecipientReviewView | null>(null);
  const [loadProblem, setLoadProblem] = useState<ReviewProblem | null>(null);
  const [closedNow, setClosedNow] = useState(false);
  const [visitor, setVisitor] = useState<Visitor | undefined>(() => storedVisitor(transferId));
  // read by the polls: a browser that refuses storage keeps its visitor id in memory only
  const visitorRef = useRef(visitor);
  visitorRef.current = visitor;
  const [verifiedEmail, setVerifiedEmail] = useState<string | undefined>(undefined);
  const [asking, setAsking] = useState(false);
  const [selected, setSelected] = useState(0);
  const pending = useRef<((writer: Writer | null) => void) | null>(null);
  const generation = useRef(0);
  // A reviewer who verified here: the session is kept where the page keeps a verified
  // recipient's (storeAccess), so a reload opens the page with it; until then it rides along here.
  const [session, setSession] = useState<string | undefined>(undefined);
  // the page makes a new `access` on every render: the calls read the newest through a ref
  const accessRef = useRef(access);
  accessRef.current = () => {
    const gate = access();
    return session === undefined || gate.access !== undefined ? gate : { ...gate, access: session };
  };

  const refresh = useCallback((signal?: AbortSignal) => {
    const asked = ++generation.current;
    return fetchReview(accessRef.current(), visitorRef.current?.visitorId, signal).then(
      (answer) => {
        // an older answer arriving after a newer one must not roll the threads back
        if (signal?.aborted || asked !== generation.current) return;
        setData(answer);
        setLoadProblem(null);
      },
      (error: unknown) => {
        if (signal?.aborted || asked !== generation.current) return;
        setLoadProblem(problemOf(error));
      },
    );
  }, []);

  // the first load, then every REVIEW_POLL_MS while the tab is visible; a tab coming back asks at once
  useEffect(() => {
    const controller = new AbortController();
    void refresh(controller.signal);
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      clearInterval(timer);
      timer = setInterval(() => void refresh(controller.signal), REVIEW_POLL_MS);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') {
        void refresh(controller.signal);
        start();
      } else clearInterval(timer);
    };
    if (document.visibilityState === 'visible') start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      controller.abort();
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [refresh]);

  const previews = useReviewPreviews(
    useCallback((signal: AbortSignal) => fetchPreviews(accessRef.current(), signal), []),
  );

  const you = verifiedEmail ?? data?.you?.email;
  const writerNow = (): Writer | null =>
    accessRef.current().access !== undefined
      ? { kind: 'verified' }
      : visitor?.name
        ? { kind: 'visitor', visitor }
        : null;

  /** Runs a write as the known reviewer, asking who they are first when nobody is known yet. */
  function asReviewer(write: (writer: Writer) => Promise<void>): WriteResult {
    const run = async (writer: Writer): Promise<ReviewProblem | null> => {
      try {
        await write(writer);
        void refresh();
        return null;
      } catch (error) {
        const problem = problemOf(error);
        if (problem.kind === 'closed') setClosedNow(true);
        if (problem.kind === 'identity') setAsking(true);
        return problem;
      }
    };
    const known = writerNow();
    if (known) return run(known);
    return new Promise((resolve) => {
      pending.current = (writer) => resolve(writer ? run(writer) : { kind: 'cancelled' });
      setAsking(true);
    });
  }

  function identified(writer: Writer) {
    setAsking(false);
    const next = pending.current;
    pending.current = null;
    next?.(writer);
  }

  if (!data) {
    return (
      <section className="rv" aria-labelledby={headingId} data-testid="review">
        <h2 id={headingId} className="rv-heading">
          {t('heading')}
        </h2>
        {loadProblem ? (
          <div className="rv-problem" role="alert" data-testid="review-load-error">
            <p>{loadProblem.kind === 'network' ? t('errorNetwork') : t('loadFailed')}</p>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => void refresh()}>
              {t('retry')}
            </button>
          </div>
        ) : (
          <p className="muted rv-loading" role="status" data-testid="review-loading">
            <span className="download-spinner download-spinner-brand" aria-hidden="true" />
            {t('loading')}
          </p>
        )}
      </section>
    );
  }

  const writable = data.settings.writable && !closedNow;
  const expired = expiryDate <= Date.now();
  const files = data.files;
  const index = Math.min(selected, Math.max(0, files.length - 1));
  const file = files[index];
  const favourites = new Set(data.favourites);
  // the current version's preview (the last id), else an earlier version's
  const previewOf = (fileIds: readonly string[]) =>
    [...fileIds].reverse().flatMap((id) => previews.files?.get(id) ?? [])[0];

  const comment = (fileId: string, body: string, anchor?: ReviewAnchor, parentId?: string) =>
    asReviewer(async (writer) => {
      const made = await postComment(accessRef.current(), writer, {
        fileId,
        body,
        ...(anchor ? { anchor } : {}),
        ...(parentId ? { parentId } : {}),
      });
      setData((d) =>
        d && !d.comments.some((c) => c.commentId === made.commentId) ? { ...d, comments: [...d.comments, made] } : d,
      );
    });
  const favourite = (fileId: string, on: boolean) =>
    asReviewer(async (writer) => {
      const answer = await postFavourite(accessRef.current(), writer, fileId, on);
      setData((d) =>
        d
          ? {
              ...d,
              favourites: answer.favourite
                ? [...d.favourites.filter((f) => f !== answer.fileId), answer.fileId]
                : d.favourites.filter((f) => f !== answer.fileId),
            }
          : d,
      );
    });
  const decide = (subject: string, decision: ReviewDecisionKind, note: string) =>
    asReviewer(async (writer) => {
      const made = await postDecision(accessRef.current(), writer, subject, decision, note);
      setData((d) => (d ? { ...d, decisions: [...d.decisions.filter((x) => x.subject !== subject), made] } : d));
    });

  return (
    <section className="rv" aria-labelledby={headingId} data-testid="review">
      <h2 id={headingId} className="rv-heading">
        {t('heading')}
      </h2>
      {writable ? (
        <p className="muted rv-intro">{t('intro')}</p>
      ) : (
        <p className="download-notice rv-readonly" role="status" data-testid="review-readonly">
          {expired ? t('expired') : closedNow ? t('errorClosed') : t('closed')}
        </p>
      )}
      {loadProblem && (
        <p className="download-notice download-notice-error" role="alert" data-testid="review-refresh-error">
          {problemText(loadProblem)}
        </p>
      )}
      {writable && (
        <Identity
          you={you}
          verified={accessRef.current().access !== undefined}
          visitor={visitor}
          onChange={() => setAsking(true)}
        />
      )}

      {files.length === 0 || !file ? (
        <p className="muted" data-testid="review-no-files">
          {t('noFiles')}
        </p>
      ) : (
        <>
          {files.length > 1 && (
            <nav className="rv-files" aria-label={t('heading')}>
              <ul>
                {files.map((f, i) => {
                  const count = commentCount(data.comments, f.fileId);
                  const decided = decisionOn(data.decisions, f.fileId)?.decision;
                  return (
                    <li key={f.fileId}>
                      <button
                        type="button"
                        className="rv-file-tab"
                        aria-current={i === index ? 'true' : undefined}
                        onClick={() => setSelected(i)}
                        data-testid="review-file-tab"
                        data-file-name={f.fileName}
                      >
                        <span className="rv-file-tab-name">{f.fileName}</span>
                        <span className="rv-file-tab-meta">
                          {f.version > 1 && <span className="rv-version">{t('version', { version: f.version })}</span>}
                          {favourites.has(f.fileId) && (
                            <span>
                              <span aria-hidden="true">★</span>
                              <span className="sr-only">{t('favourited')}</span>
                            </span>
                          )}
                          {decided && (
                            <span className={`rv-decision-dot rv-decision-${decided}`}>
                              <span aria-hidden="true">{decided === 'approved' ? '✓' : '!'}</span>
                              <span className="sr-only">
                                {decided === 'approved' ? t('approved') : t('changesRequested')}
                              </span>
                            </span>
                          )}
                          <span>{t('comments', { count })}</span>
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            </nav>
          )}
          <ReviewFile
            key={file.fileId}
            file={file}
            position={{ n: index + 1, total: files.length }}
            preview={previewOf(file.versionFileIds)}
            previewsFailed={previews.failed}
            onBroken={previews.renew}
            threads={threadsOf(data.comments, file.fileId)}
            favourite={favourites.has(file.fileId)}
            decision={decisionOn(data.decisions, file.fileId)}
            writable={writable}
            onComment={(body, anchor, parentId) => comment(file.fileId, body, anchor, parentId)}
            onFavourite={(on) => favourite(file.fileId, on)}
            onDecide={(decision, note) => decide(file.fileId, decision, note)}
          />
          <DecisionBox
            subject="transfer"
            heading={t('transferDecisionHeading')}
            decision={decisionOn(data.decisions, 'transfer')}
            writable={writable}
            onDecide={(decision, note) => decide('transfer', decision, note)}
          />
        </>
      )}

      {asking && (
        <IdentityDialog
          transferId={transferId}
          access={() => accessRef.current()}
          initialName={visitor?.name ?? ''}
          onVisitor={(v) => {
            visitorRef.current = v;
            setVisitor(v);
            identified({ kind: 'visitor', visitor: v });
          }}
          onVerified={(token, email) => {
            accessRef.current = () => ({ ...access(), access: token });
            setSession(token);
            storeAccess(transferId, token);
            setVerifiedEmail(email);
            identified({ kind: 'verified' });
            void refresh();
          }}
          onCancel={() => {
            setAsking(false);
            const next = pending.current;
            pending.current = null;
            next?.(null);
          }}
        />
      )}
    </section>
  );
}

/** Who the reviewer's comments will show as, with a way to change it. */
function Identity({
  you,
  verified,
  visitor,
  onChange,
}: {
  you: string | undefined;
  verified: boolean;
  visitor: Visitor | undefined;
  onChange: () => void;
}) {
  const { t } = useTranslation('reviewer');
  const text =
    verified && you
      ? t('signedInVerified', { email: you })
      : visitor?.name
        ? t('signedInUnverified', { name: visitor.name })
        : null;
  if (!text) return null;
  return (
    <p className="rv-identity" data-testid="review-identity">
      <span>{text}</span>
      {!verified && (
        <button type="button" className="rv-link" onClick={onChange} data-testid="review-identity-change">
          {t('changeIdentity')}
        </button>
      )}
    </p>
  );
}
