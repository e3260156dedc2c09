import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { MODAL_HIDE_MS } from '@domain/ui-timings';
import { useAction } from '@/lib/use-action';
import { sendFeedback } from '@/shared/account/account-api';
import {
  FEEDBACK_MESSAGE_MAX,
  FEEDBACK_RATINGS,
  canSendFeedback,
  feedbackBody,
  type FeedbackRating,
} from '../feedback';
import { RatingFace } from './rating-face';

/** Rating Bad / Fine / Fantastic, a required message, POST /feedback with the current route. */
export function FeedbackDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const location = useLocation();
  const ids = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const [rating, setRating] = useState<FeedbackRating | null>(null);
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState(false);
  const action = useAction();

  // showModal gives the focus trap, Escape and the backdrop. No close() on cleanup: it fires
  // the close event, which would shut the prompt on StrictMode's trial unmount; removing the
  // element takes it out of the top layer anyway.
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  // The thank-you closes by itself (spec §9: modal hides after 6 s).
  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(onClose, MODAL_HIDE_MS);
    return () => clearTimeout(timer);
  }, [sent, onClose]);

  const sendable = canSendFeedback(message) && !action.busy;

  const submit = async () => {
    const body = feedbackBody({ message, rating, route: location.pathname });
    if (!body) return;
    if (await action.run(() => sendFeedback(body))) setSent(true);
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click is a pointer shortcut; the keyboard closes the modal dialog with Escape (native) or its close button
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
        {sent ? (
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
            {action.error && (
              <p className="dash-error" role="alert">
                {t('dashboard.feedback.failed', { message: action.error })}
              </p>
            )}
            <div className="dash-modal-actions">
              <button type="submit" className="btn btn-primary" disabled={!sendable} data-testid="feedback-send">
                {action.busy ? t('dashboard.feedback.sending') : t('dashboard.feedback.send')}
              </button>
            </div>
          </form>
        )}
      </div>
    </dialog>
  );
}
