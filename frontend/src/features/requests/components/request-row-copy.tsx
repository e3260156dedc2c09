import { useTranslation } from 'react-i18next';
import { useCopyLink } from '@/lib/use-copy-link';

/** Copies one request's public link from its row, and says so to screen readers. */
export function RowCopy({ link, title }: { link: string; title: string }) {
  const { t } = useTranslation('requests');
  const { copied, copy } = useCopyLink(link);
  return (
    <>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => void copy()} data-testid="request-row-copy">
        {copied ? t('list.copied') : t('list.copy')}
        {/* which request, for screen readers: the name starts with the visible text */}
        <span className="sr-only"> ({title})</span>
      </button>
      <span className="sr-only" role="status">
        {copied ? t('list.copied') : ''}
      </span>
    </>
  );
}
