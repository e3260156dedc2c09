import { useTranslation } from 'react-i18next';
import { formatBytes, formatSpeed } from '@domain/format';
import { remainingFor } from '../progress-text';
import type { UploadProgress } from '../engine';

/** Speed, time left, files and bytes (their labels for screen readers only). */
export function ProgressStats({ progress, finishing }: { progress: UploadProgress; finishing: boolean }) {
  const { t } = useTranslation();
  const remaining = remainingFor(progress);
  return (
    <dl className="qs-stats">
      <div>
        <dt className="sr-only">{t('send.progress.speedLabel')}</dt>
        <dd>{progress.speedBps > 0 ? formatSpeed(progress.speedBps) : '–'}</dd>
      </div>
      <div>
        <dt className="sr-only">{t('send.progress.remainingLabel')}</dt>
        <dd data-testid="progress-remaining">
          {finishing
            ? t('send.progress.finishingDetail')
            : 'count' in remaining
              ? t(remaining.key, { count: remaining.count })
              : t(remaining.key)}
        </dd>
      </div>
      <div>
        <dt className="sr-only">{t('send.progress.filesLabel')}</dt>
        <dd data-testid="progress-files">
          {t('send.progress.files', { done: progress.filesDone, total: progress.filesTotal })}
        </dd>
      </div>
      <div>
        <dt className="sr-only">{t('send.progress.bytesLabel')}</dt>
        <dd>
          {t('send.progress.bytes', {
            done: formatBytes(progress.bytesDone),
            total: formatBytes(progress.bytesTotal),
          })}
        </dd>
      </div>
    </dl>
  );
}
