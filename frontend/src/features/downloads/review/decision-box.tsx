import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COMMENT_MAX_CHARS, type ReviewDecision, type ReviewDecisionKind } from '@domain/review';
import { formatDateTime } from '@/lib/format-date-time';
import { useProblemText } from '@/features/downloads/review/problem-text';
import type { WriteResult } from '@/features/downloads/review/review-logic';

/** Approve, or ask for changes, with an optional note: for one file or (subject 'transfer') all of it. */
export function DecisionBox({
  subject,
  heading,
  decision,
  version,
  writable,
  onDecide,
}: {
  subject: string;
  heading: string;
  decision: ReviewDecision | undefined;
  /** a file's current version: a decision on an older one says which */
  version?: number;
  writable: boolean;
  onDecide: (decision: ReviewDecisionKind, note: string) => WriteResult;
}) {
  const { t, i18n } = useTranslation('reviewer');
  const problemText = useProblemText();
  const headingId = useId();
  const noteId = useId();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState<ReviewDecisionKind | null>(null);
  const [error, setError] = useState<string | null>(null);
  const whole = subject === 'transfer';

  async function decide(kind: ReviewDecisionKind) {
    if (busy) return;
    if (note.trim().length > COMMENT_MAX_CHARS) return setError(t('tooLong', { max: COMMENT_MAX_CHARS }));
    setBusy(kind);
    setError(null);
    const problem = await onDecide(kind, note);
    setBusy(null);
    if (problem) {
      if (problem.kind !== 'cancelled') setError(problemText(problem));
    } else setNote('');
  }

  const status = decision
    ? whole || version === undefined || decision.version === version
      ? decision.decision === 'approved'
        ? t('approved')
        : t('changesRequested')
      : decision.decision === 'approved'
        ? t('approvedFile', { version: decision.version })
        : t('changedFile', { version: decision.version })
    : null;

  return (
    <section
      className={`rv-decision${whole ? ' rv-decision-transfer' : ''}`}
      aria-labelledby={headingId}
      data-testid={whole ? 'review-transfer-decision' : 'review-file-decision'}
    >
      <h4 id={headingId} className="rv-subheading">
        {heading}
      </h4>
      {status && decision && (
        <p
          className={`rv-decision-status rv-decision-${decision.decision}`}
          role="status"
          data-testid="review-decision-status"
          data-decision={decision.decision}
        >
          <span aria-hidden="true">{decision.decision === 'approved' ? '✓ ' : '! '}</span>
          {status} <span className="muted">{formatDateTime(decision.at, i18n.language)}</span>
          {decision.note && <span className="rv-decision-note">{decision.note}</span>}
        </p>
      )}
      {writable && (
        <>
          <label htmlFor={noteId} className="rv-label">
            {t('noteLabel')}
          </label>
          <textarea
            id={noteId}
            className="rv-textarea"
            rows={2}
            value={note}
            onChange={(event) => setNote(event.target.value)}
            data-testid="review-decision-note"
          />
          {error && (
            <p className="download-notice download-notice-error" role="alert" data-testid="review-decision-error">
              {error}
            </p>
          )}
          <div className="rv-form-actions">
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={busy !== null}
              onClick={() => void decide('changes_requested')}
              data-testid="review-request-changes"
            >
              {t('requestChanges')}
            </button>
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={busy !== null}
              onClick={() => void decide('approved')}
              data-testid="review-approve"
            >
              {busy === 'approved' && <span className="download-spinner" aria-hidden="true" />}
              {whole ? t('approveAll') : t('approve')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
