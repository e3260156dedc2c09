import { useId, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestSummary } from '@domain/requests-api';
import { CopyLink } from '@/components/copy-link';
import { formatDateTime } from '@/lib/format-date-time';
import { formatSize } from '@/lib/format-size';
import { STATE_BADGE } from '../request-state';

export interface DetailNotice {
  readonly kind: 'error' | 'success';
  readonly text: string;
}

interface RequestDetailHeadProps {
  readonly request: RequestSummary;
  /** the title, which takes the focus when a deleted upload's card is gone */
  readonly headingRef: Ref<HTMLHeadingElement>;
  readonly saving: boolean;
  readonly notice: DetailNotice | null;
  onSetState(state: 'open' | 'closed'): void;
}

/** One request's title, state, facts and link, with Close or Reopen and the outcome of the last change. */
export function RequestDetailHead({ request, headingRef, saving, notice, onSetState }: RequestDetailHeadProps) {
  const { t, i18n } = useTranslation('requests');
  const lng = i18n.resolvedLanguage ?? 'en';
  const ids = useId();
  return (
    <section className="card rq-detail-head" aria-labelledby={`${ids}-title`}>
      <div className="rq-detail-title">
        <h1 id={`${ids}-title`} ref={headingRef} tabIndex={-1} data-testid="request-detail-title">
          {request.title}
        </h1>
        <span className={STATE_BADGE[request.state]} data-state={request.state} data-testid="request-detail-state">
          {t(`state.${request.state}`)}
        </span>
      </div>
      {request.message && <p className="tr-message">{request.message}</p>}
      <dl className="tr-facts">
        <div>
          <dt>{t('detail.facts.due')}</dt>
          <dd>{request.dueDate === null ? t('list.noDue') : formatDateTime(request.dueDate, lng)}</dd>
        </div>
        <div>
          <dt>{t('detail.facts.uploads')}</dt>
          <dd data-testid="request-detail-count">
            {t('detail.uploadsSummary', { count: request.uploadCount, size: formatSize(request.totalBytes, lng) })}
          </dd>
        </div>
        <div>
          <dt>{t('detail.facts.created')}</dt>
          <dd>{formatDateTime(request.createdAt, lng)}</dd>
        </div>
      </dl>
      <CopyLink link={request.link} label={t('list.linkLabel')} testId="request-detail-link" />
      <div className="rq-form-actions rq-start">
        {request.state === 'open' ? (
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => onSetState('closed')}
            disabled={saving}
            data-testid="request-close"
          >
            {t('detail.close')}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => onSetState('open')}
            disabled={saving}
            data-testid="request-reopen"
          >
            {t('detail.reopen')}
          </button>
        )}
      </div>
      <div role="status">
        {notice?.kind === 'success' && (
          <p className="tr-notice tr-notice-success" data-testid="request-notice">
            {notice.text}
          </p>
        )}
      </div>
      {notice?.kind === 'error' && (
        <p className="tr-notice tr-notice-error" role="alert" data-testid="request-error">
          {notice.text}
        </p>
      )}
    </section>
  );
}
