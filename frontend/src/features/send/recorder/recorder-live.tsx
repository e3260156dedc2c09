import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { formatElapsed, type RecorderState } from './recorder-machine';
import { StopIcon } from '@/components/recorder-icons';

interface RecorderLiveProps {
  readonly state: RecorderState;
  /** the control that stands in for the pressed record button: focus goes there */
  readonly actionButton: RefObject<HTMLButtonElement | null>;
  onStop(): void;
  onCancel(): void;
}

/** The recorder while it runs: asking the browser, the countdown, recording with Stop, saving. */
export function RecorderLive({ state, actionButton, onStop, onCancel }: RecorderLiveProps) {
  const { t } = useTranslation();
  return (
    <>
      {state.phase === 'requesting' && (
        <div className="qs-recorder-live">
          <p className="qs-hint">{t('send.recorder.waiting')}</p>
          <CancelButton buttonRef={actionButton} onCancel={onCancel} />
        </div>
      )}

      {state.phase === 'countdown' && (
        <div className="qs-recorder-live">
          <span
            className="qs-recorder-countdown"
            role="timer"
            aria-live="assertive"
            aria-label={t('send.recorder.startsIn', { seconds: state.remaining })}
            data-testid="recorder-countdown"
          >
            {state.remaining}
          </span>
          <CancelButton buttonRef={actionButton} onCancel={onCancel} />
        </div>
      )}

      {state.phase === 'recording' && (
        <div className="qs-recorder-live">
          <span className="qs-recorder-dot" aria-hidden="true" />
          <span className="qs-recorder-label">
            {state.kind === 'voice' ? t('send.recorder.recordingVoice') : t('send.recorder.recordingVideo')}
          </span>
          <span
            className="qs-recorder-elapsed"
            role="timer"
            aria-label={t('send.recorder.elapsed')}
            data-testid="recorder-elapsed"
          >
            {formatElapsed(state.elapsedMs)}
          </span>
          <button
            ref={actionButton}
            type="button"
            className="btn btn-primary btn-sm"
            onClick={onStop}
            data-testid="recorder-stop"
          >
            <StopIcon /> {t('send.recorder.stop')}
          </button>
        </div>
      )}

      {state.phase === 'saving' && (
        <div className="qs-recorder-live">
          <p className="qs-hint" role="status">
            {t('send.recorder.saving')}
          </p>
        </div>
      )}
    </>
  );
}

/** Calls off the recording before it starts (while the browser asks, or during the countdown). */
function CancelButton({
  buttonRef,
  onCancel,
}: {
  buttonRef: RefObject<HTMLButtonElement | null>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <button
      ref={buttonRef}
      type="button"
      className="btn btn-ghost btn-sm"
      onClick={onCancel}
      data-testid="recorder-cancel"
    >
      {t('send.recorder.cancel')}
    </button>
  );
}
