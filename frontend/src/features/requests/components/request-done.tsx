import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** The upload arrived: thanks, and a way to send more to the same request. */
export function RequestDone({
  requesterName,
  named,
  count,
  onMore,
}: {
  requesterName: string;
  named: boolean;
  count: number;
  onMore(): void;
}) {
  const { t } = useTranslation('requests');
  const ids = useId();
  return (
    <section className="qs-done" aria-labelledby={`${ids}-done`} data-testid="request-done">
      <h2 id={`${ids}-done`} className="qs-title qs-center" tabIndex={-1} data-step-heading>
        {t('public.done.title')}
      </h2>
      <p className="qs-lead qs-center">
        {named ? t('public.done.body', { name: requesterName, count }) : t('public.done.bodyNoName', { count })}
      </p>
      <button type="button" className="btn btn-ghost btn-block" onClick={onMore} data-testid="request-upload-more">
        {t('public.done.more')}
      </button>
    </section>
  );
}
