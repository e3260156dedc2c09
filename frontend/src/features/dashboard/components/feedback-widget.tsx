import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '@domain/auth-api';
import { useFeedbackPrompt } from '../use-feedback-prompt';
import { FeedbackDialog } from './feedback-dialog';

/**
 * The dashboard's Feedback button, and the feedback modal that also opens by itself at login
 * counts 3, 18 and 35 (spec §2, §9), once per count.
 */
export function FeedbackWidget({ user }: { readonly user: Pick<SessionUser, '_id' | 'loginCount'> }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  useFeedbackPrompt(user, () => setOpen(true));

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
        <span className="dash-feedback-label icon-only-label">{t('dashboard.feedback.open')}</span>
      </button>
      {open && <FeedbackDialog onClose={() => setOpen(false)} />}
    </>
  );
}
