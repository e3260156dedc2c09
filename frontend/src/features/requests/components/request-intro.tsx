import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicRequestResponse } from '@domain/requests-api';
import { formatDateTime } from '@/lib/format-date-time';
import { formatSize } from '@/lib/format-size';
import type { EffectiveRules } from '../request-rules';

/** Who asks, what for, until when, and the rules the files must keep. */
export function RequestIntro({
  request,
  rules,
  named,
  lang,
}: {
  request: PublicRequestResponse;
  rules: EffectiveRules;
  named: boolean;
  lang: string;
}) {
  const { t, i18n } = useTranslation('requests');
  const ids = useId();
  const ruleItems = [
    t('public.rules.maxBytes', { size: formatSize(rules.maxBytes, i18n.language) }),
    rules.allowedTypes.length > 0
      ? t('public.rules.types', { types: rules.allowedTypes.join(', ') })
      : t('public.rules.anyType'),
    t('public.rules.maxFiles', { count: rules.maxFiles }),
  ];
  return (
    <section className="rq-intro" aria-labelledby={`${ids}-title`} data-testid="request-intro">
      {request.logoUrl && (
        <img
          className="rq-logo"
          src={request.logoUrl}
          alt={named ? t('public.logoAlt', { name: request.requesterName }) : t('public.logoAltNoName')}
          data-testid="request-logo"
        />
      )}
      <p className="rq-eyebrow" data-testid="request-requester">
        {named ? t('public.asks', { name: request.requesterName }) : t('public.asksNoName')}
      </p>
      <h1 id={`${ids}-title`} data-testid="request-title">
        {request.title}
      </h1>
      {request.message && (
        <p className="rq-message" data-testid="request-message">
          {request.message}
        </p>
      )}
      {request.dueDate !== null && (
        <p className="rq-due" data-testid="request-due">
          {t('public.due', { date: formatDateTime(request.dueDate, lang) })}
        </p>
      )}
      <h2 className="rq-rules-title">{t('public.rules.title')}</h2>
      <ul className="rq-rules" data-testid="request-rules">
        {ruleItems.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </section>
  );
}
