import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorTextOf } from '@/i18n/error-keys';
import { useLocation } from 'react-router';
import type { SessionUser } from '@domain/auth-api';
import { MODAL_HIDE_MS } from '@domain/ui-timings';
import { sendFeedback } from '@/shared/account/account-api';
import {
  FEEDBACK_MESSAGE_MAX,
  FEEDBACK_RATINGS,
  canSendFeedback,
  feedbackBody,
  feedbackPromptDue,
  feedbackStorageKey,
  parseShownCounts,
  withShownCount,
  type FeedbackRating,
} from '../feedback';

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // storage blocked (private mode, policy): the prompt may then show again at this count
    return null;
  }
}

function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // see readStored
  }
}

/**
 * The dashboard's Feedback button, and the feedback modal that also opens by itself at login
 * counts 3, 18 and 35 (spec §2, §9), once per count.
 */
export function FeedbackWidget({ user }: { readonly user: Pick<SessionUser, '_id' | 'loginCount'> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const key = feedbackStorageKey(user._id);
    const shown = parseShownCounts(readStored(key));
    if (!feedbackPromptDue(user.loginCount, shown)) return;
    // Remembered on opening, so closing without sending also counts as shown.
    writeStored(key, JSON.stringify(withShownCount(shown, user.loginCount)));
    setOpen(true);
  }, [user._id, user.loginCount]);

  return (
    <>
      <button
        type="button"
        className="btn btn-ghost btn-sm dash-feedback-button"
        onClick={() => setOpen(true)}
        title={t('dashboard.feedback.open')}
        data-testid="feedback-open"
      >
        <svg
          viewBox="0 0 24 24"
          width="18"
          height="18"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
        >
          <path d="M20 14.5a2 2 0 0 1-2 2H8.5L4 20V6a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2z" />
        </svg>
        <span className="dash-feedback-label">{t('dashboard.feedback.open')}</span>
      </button>
      {open && <FeedbackDialog onClose={() => setOpen(false)} />}
    </>
  );
}

/** Drawn, not emoji: emoji fonts are missing on some systems and differ on the rest. */
function RatingFace({ rating }: { rating: FeedbackRating }) {
  const mouth = {
    Bad: <path d="M8.5 16.5c1.9-2 5.1-2 7 0" />,
    Fine: <path d="M8.5 14.5c1.9 1.6 5.1 1.6 7 0" />,
    Fantastic: <path d="M7.5 13.5h9c0 2.8-2 4.5-4.5 4.5s-4.5-1.7-4.5-4.5z" />,
  }[rating];
  return (
    <svg
      className="dash-rating-face"
      viewBox="0 0 24 24"
      width="28"
      height="28"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="9.5" />
      <circle cx="9" cy="9.8" r="0.9" fill="currentColor" stroke="none" />
      <circle cx="15" cy="9.8" r="0.9" fill="currentColor" stroke="none" />
      {mouth}
    </svg>
  );
}

type SendState =
  | { readonly kind: 'editing' }
  | { readonly kind: 'sending' }
  | { readonly kind: 'sent' }
  | { readonly kind: 'failed'; readonly message: string };

/** Rating Bad / Fine / Fantastic, a required message, POST /feedback with the current route. */
export function FeedbackDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const location = useLocation();
  const ids = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [rating, setRating] = useState<FeedbackRating | null>(null);
  const [message, setMessage] = useState('');
  const [state, setState] = useState<SendState>({ kind: 'editing' });

  // showModal gives the focus trap, Escape and the backdrop. No close() on cleanup: it fires
  // the close event, which would shut the prompt on StrictMode's trial unmount; removing the
  // element takes it out of the top layer anyway.
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  // The thank-you closes by itself (spec §9: modal hides after 6 s).
  useEffect(() => {
    if (state.kind !== 'sent') return;
    const timer = setTimeout(onClose, MODAL_HIDE_MS);
    return () => clearTimeout(timer);
  }, [state.kind, onClose]);

  const sendable = canSendFeedback(message) && state.kind !== 'sending';

  const submit = async () => {
    const body = feedbackBody({ message, rating, route: location.pathname });
    if (!body || state.kind === 'sending') return;
    setState({ kind: 'sending' });
    try {
      await sendFeedback(body);
      setState({ kind: 'sent' });
    } catch (err) {
      const text = errorTextOf(err);
      setState({ kind: 'failed', message: t(text.key, text.params) });
    }
  };

  return (
    <dialog
      ref={dialog}
      className="dash-modal"
      aria-labelledby={`${ids}-title`}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) dialog.current?.close();
      }}
      data-testid="feedback-modal"
    >
      <div className="dash-modal-body">
        <button
          type="button"
          className="dash-modal-close"
          aria-label={t('dashboard.feedback.close')}
          onClick={() => dialog.current?.close()}
        >
          <span aria-hidden="true">×</span>
        </button>
        <h2 id={`${ids}-title`}>{t('dashboard.feedback.title')}</h2>
        {state.kind === 'sent' ? (
          <p role="status" data-testid="feedback-thanks">
            {t('dashboard.feedback.thanks')}
          </p>
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <p className="muted">{t('dashboard.feedback.lead')}</p>
            <fieldset className="dash-ratings">
              <legend>{t('dashboard.feedback.rating')}</legend>
              {FEEDBACK_RATINGS.map((value) => (
                <button
                  key={value}
                  type="button"
                  className="dash-rating"
                  aria-pressed={rating === value}
                  onClick={() => setRating((current) => (current === value ? null : value))}
                  data-testid={`feedback-rating-${value}`}
                >
                  <RatingFace rating={value} />
                  {t(`dashboard.feedback.ratings.${value}`)}
                </button>
              ))}
            </fieldset>
            <label htmlFor={`${ids}-message`} className="dash-label">
              {t('dashboard.feedback.message')}
            </label>
            <textarea
              id={`${ids}-message`}
              className="dash-input dash-textarea"
              rows={4}
              maxLength={FEEDBACK_MESSAGE_MAX}
              required
              value={message}
              placeholder={t('dashboard.feedback.messagePlaceholder')}
              onChange={(event) => setMessage(event.target.value)}
              data-testid="feedback-message"
            />
            {state.kind === 'failed' && (
              <p className="dash-error" role="alert">
                {t('dashboard.feedback.failed', { message: state.message })}
              </p>
            )}
            <div className="dash-modal-actions">
              <button type="submit" className="btn btn-primary" disabled={!sendable} data-testid="feedback-send">
                {state.kind === 'sending' ? t('dashboard.feedback.sending') : t('dashboard.feedback.send')}
              </button>
            </div>
          </form>
        )}
      </div>
    </dialog>
  );
}
