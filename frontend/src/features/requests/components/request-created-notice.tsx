import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestSummary } from '@domain/requests-api';
import { CopyLink } from '@/components/copy-link';

interface CreatedNoticeProps {
  readonly ref: Ref<HTMLElement>;
  readonly headingId: string;
  readonly request: RequestSummary;
}

/** The request just made, with its public link to copy; focus lands here when the form closes. */
export function CreatedNotice({ ref, headingId, request }: CreatedNoticeProps) {
  const { t } = useTranslation('requests');
  return (
    <section
      ref={ref}
      className="card rq-created"
      tabIndex={-1}
      aria-labelledby={headingId}
      data-testid="request-created"
    >
      <h2 id={headingId}>{t('list.created', { title: request.title })}</h2>
      <p className="muted">{t('list.createdLead')}</p>
      <CopyLink link={request.link} label={t('list.linkLabel')} testId="request-created-link" />
    </section>
  );
}
