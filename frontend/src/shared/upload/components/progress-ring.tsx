import { useTranslation } from 'react-i18next';
import { ringArc } from '../progress-text';

const RING_RADIUS = 52;
const RING_LENGTH = 2 * Math.PI * RING_RADIUS;
/** stroke-width of .qs-ring-value (quick-send.css), in viewBox units */
const RING_STROKE = 10;
/** the share of the ring (and bar) the moving segment covers while the upload is finishing */
export const FINISHING_ARC_PERCENT = 25;

/** The radial percentage; while the upload is finishing, a busy ring instead of a stuck 100 %. */
export function ProgressRing({ percent, finishing }: { percent: number; finishing: boolean }) {
  const { t } = useTranslation();
  const arc = ringArc(finishing ? FINISHING_ARC_PERCENT : percent, RING_LENGTH, RING_STROKE);
  return (
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
  );
}
