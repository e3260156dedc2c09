import { useTranslation } from 'react-i18next';
import { CheckIcon } from '@/components/icons';

export type ZipPhase = 'idle' | 'building' | 'started';

/** One live region for progress and outcome, so a screen reader hears each change once. */
export function Status({
  zip,
  notice,
  error,
  info = null,
}: {
  zip: ZipPhase;
  notice: boolean;
  error: string | null;
  /** a neutral outcome (the checksums' files still being fingerprinted) */
  info?: string | null;
}) {
  const { t } = useTranslation();
  let content = null;
  if (zip === 'building') {
    content = (
      <p className="download-notice" data-testid="zip-building">
        <span className="download-spinner download-spinner-brand" aria-hidden="true" />
        {t('download.fetchingFiles')}
      </p>
    );
  } else if (error) {
    content = (
      <p className="download-notice download-notice-error" data-testid="download-action-error">
        {error}
      </p>
    );
  } else if (info) {
    content = (
      <p className="download-notice" data-testid="download-info">
        {info}
      </p>
    );
  } else if (notice) {
    content = (
      <p className="download-notice download-notice-success" data-testid="download-started">
        <CheckIcon aria-hidden="true" />
        {t('download.downloadStarted')}
      </p>
    );
  }
  return (
    <div className="download-status" role="status" aria-live="polite">
      {content}
    </div>
  );
}
