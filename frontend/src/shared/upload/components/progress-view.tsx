import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatSpeed } from '@domain/format';
import { PHASE_KEYS, announcedPercent, barWidthPercent, percentDone, remainingFor, ringArc } from '../progress-text';
import type { UploadProgress } from '../engine';

const RING_RADIUS = 52;
const RING_LENGTH = 2 * Math.PI * RING_RADIUS;
/** stroke-width of .qs-ring-value (quick-send.css), in viewBox units */
const RING_STROKE = 10;
/** the share of the ring (and bar) the moving segment covers while the upload is finishing */
const FINISHING_ARC_PERCENT = 25;

interface ProgressViewProps {
  readonly progress: UploadProgress;
  /** Yes in 'Cancel this transfer?' */
  onCancel(): void;
}

/** Upload progress (spec §2, §9): radial percentage, bar, speed, time left, files and bytes. */
export function ProgressView({ progress, onCancel }: ProgressViewProps) {
  const { t } = useTranslation();
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const noButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  const percent = percentDone(progress.bytesDone, progress.bytesTotal);
  const remaining = remainingFor(progress);
  // Every byte is in and the server is putting the files together: a busy ring, not a stuck 100 %.
  const finishing = progress.phase === 'almost-done';
  const arc = ringArc(finishing ? FINISHING_ARC_PERCENT : percent, RING_LENGTH, RING_STROKE);

  useEffect(() => {
    if (confirming) noButton.current?.focus();
    else if (wasConfirming.current) cancelButton.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);

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
      <div
        className={finishing ? 'qs-ring qs-ring-busy' : 'qs-ring'}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        {...(finishing ? { 'aria-valuetext': t('send.progress.finishing') } : { 'aria-valuenow': percent })}
        aria-label={t('send.progress.label')}
        data-testid="progress-ring-box"
      >
        <svg viewBox="0 0 120 120" width="160" height="160" aria-hidden="true">
          <circle className="qs-ring-track" cx="60" cy="60" r={RING_RADIUS} />
          {arc.visible && (
            <circle
              className="qs-ring-value"
              cx="60"
              cy="60"
              r={RING_RADIUS}
              strokeWidth={RING_STROKE}
              strokeDasharray={arc.dashArray}
              strokeDashoffset={arc.dashOffset}
              transform="rotate(-90 60 60)"
              data-testid="progress-ring"
            />
          )}
        </svg>
        {finishing ? (
          <span className="qs-ring-text qs-ring-text-busy" data-testid="progress-finishing">
            {t('send.progress.finishing')}
          </span>
        ) : (
          <span className="qs-ring-text" data-testid="progress-percent">
            {percent}
            <small>%</small>
          </span>
        )}
      </div>
      <div className={finishing ? 'qs-bar qs-bar-busy' : 'qs-bar'} aria-hidden="true">
        <div
          className="qs-bar-fill"
          style={{ width: `${finishing ? FINISHING_ARC_PERCENT : barWidthPercent(percent)}%` }}
        />
      </div>
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
      {/* Screen readers hear the phase and each 10 % step, not every progress tick. */}
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {t(PHASE_KEYS[progress.phase])}{' '}
        {finishing ? t('send.progress.finishing') : t('send.progress.announce', { percent: announcedPercent(percent) })}
      </p>
      {confirming ? (
        <div className="qs-confirm" role="alertdialog" aria-labelledby={`${id}-confirm`} aria-modal="false">
          <p id={`${id}-confirm`} className="qs-confirm-text">
            {t('send.progress.confirm')}
          </p>
          <div className="qs-confirm-actions">
            <button type="button" className="btn btn-primary btn-sm" onClick={onCancel} data-testid="cancel-yes">
              {t('send.progress.yes')}
            </button>
            <button
              ref={noButton}
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => setConfirming(false)}
              data-testid="cancel-no"
            >
              {t('send.progress.no')}
            </button>
          </div>
        </div>
      ) : (
        <button
          ref={cancelButton}
          type="button"
          className="btn btn-ghost btn-sm qs-cancel"
          onClick={() => setConfirming(true)}
          data-testid="cancel-upload"
        >
          {t('send.progress.cancel')}
        </button>
      )}
    </section>
  );
}
