import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PHASE_KEYS, announcedPercent, barWidthPercent, percentDone } from '../progress-text';
import type { UploadProgress } from '../engine';
import { FINISHING_ARC_PERCENT, ProgressRing } from './progress-ring';
import { ProgressStats } from './progress-stats';
import { UploadCancel } from './upload-cancel';

interface ProgressViewProps {
  readonly progress: UploadProgress;
  /** Yes in 'Cancel this transfer?' */
  onCancel(): void;
  /** what the sender can share while the upload runs (a link that works now) */
  readonly children?: ReactNode;
}

/** Upload progress (spec §2, §9): radial percentage, bar, speed, time left, files and bytes. */
export function ProgressView({ progress, onCancel, children }: ProgressViewProps) {
  const { t } = useTranslation();
  const id = useId();
  const percent = percentDone(progress.bytesDone, progress.bytesTotal);
  // Every byte is in and the server is putting the files together: a busy ring, not a stuck 100 %.
  const finishing = progress.phase === 'almost-done';

  return (
    <section className="qs-progress" aria-labelledby={`${id}-title`}>
      <h2
        id={`${id}-title`}
        className="qs-title qs-center"
        tabIndex={-1}
        data-step-heading
        data-testid="progress-phase"
      >
        {t(PHASE_KEYS[progress.phase])}
      </h2>
      <ProgressRing percent={percent} finishing={finishing} />
      <div className={finishing ? 'qs-bar qs-bar-busy' : 'qs-bar'} aria-hidden="true">
        <div
          className="qs-bar-fill"
          style={{ width: `${finishing ? FINISHING_ARC_PERCENT : barWidthPercent(percent)}%` }}
        />
      </div>
      <ProgressStats progress={progress} finishing={finishing} />
      {/* Screen readers hear the phase and each 10 % step, not every progress tick. */}
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {t(PHASE_KEYS[progress.phase])}{' '}
        {finishing ? t('send.progress.finishing') : t('send.progress.announce', { percent: announcedPercent(percent) })}
      </p>
      {children}
      <UploadCancel onCancel={onCancel} />
    </section>
  );
}
