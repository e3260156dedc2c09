import { useEffect, useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { formatElapsed, isBusy, type RecorderState, type Recording, type RecordingKind } from './recorder-machine';
import { MicIcon, StopIcon, VideoIcon } from '@/components/recorder-icons';
import { useRecorder } from './use-recorder';

interface RecorderPanelProps {
  /** a new recording of this kind began: the old one leaves the file list */
  onStarted(kind: RecordingKind): void;
  onRecorded(recording: Recording): void;
  /** start this kind of recording at once (the button that loaded the recorder was pressed) */
  readonly startWith?: RecordingKind;
}

/**
 * 'Record voice memo' and 'Record video' (spec §2): countdown, recording with Stop and the
 * elapsed time, then the recording joins the file list. Not shown where the browser cannot record.
 */
export function RecorderPanel({ onStarted, onRecorded, startWith }: RecorderPanelProps) {
  const recorder = useRecorder({ onStarted, onRecorded });
  const { start } = recorder;
  // On mount, once useRecorder's effect has made the controller. A timer the cleanup clears, so
  // StrictMode's mount-unmount-mount asks for the microphone once, on the controller that stays.
  useEffect(() => {
    if (!startWith) return;
    const timer = setTimeout(() => start(startWith), 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (!recorder.supported) return null;
  return (
    <RecorderView
      state={recorder.state}
      stream={recorder.stream}
      onStart={recorder.start}
      onStop={recorder.stop}
      onCancel={recorder.cancel}
    />
  );
}

interface RecorderViewProps {
  readonly state: RecorderState;
  readonly stream: MediaStream | null;
  onStart(kind: RecordingKind): void;
  onStop(): void;
  onCancel(): void;
}

/** The recorder's face for a given state; focus follows the control that replaced the one pressed. */
export function RecorderView({ state, stream, onStart, onStop, onCancel }: RecorderViewProps) {
  const { t } = useTranslation();
  const voiceButton = useRef<HTMLButtonElement>(null);
  const videoButton = useRef<HTMLButtonElement>(null);
  const actionButton = useRef<HTMLButtonElement>(null);
  const busy = isBusy(state);
  const kind = state.phase === 'idle' ? null : state.kind;

  // The pressed button disappears while recording; keyboard focus moves to what replaced it and
  // back (the saving moment has no control, so focus waits for the record button to return).
  const phase = state.phase;
  const wasBusy = useRef(false);
  useEffect(() => {
    if (busy) actionButton.current?.focus();
    else if (wasBusy.current) (kind === 'video' ? videoButton : voiceButton).current?.focus();
    wasBusy.current = busy;
  }, [phase, busy, kind]);

  const showPreview =
    kind === 'video' && stream !== null && (state.phase === 'countdown' || state.phase === 'recording');

  return (
    <div className="qs-recorder" data-testid="recorder" data-phase={state.phase}>
      {!busy && (
        <div className="qs-recorder-buttons">
          <button
            ref={voiceButton}
            type="button"
            className="qs-link-button"
            onClick={() => onStart('voice')}
            data-testid="record-voice"
          >
            <MicIcon /> {t('send.recorder.recordVoice')}
          </button>
          <button
            ref={videoButton}
            type="button"
            className="qs-link-button"
            onClick={() => onStart('video')}
            data-testid="record-video"
          >
            <VideoIcon /> {t('send.recorder.recordVideo')}
          </button>
        </div>
      )}

      {showPreview && (
        <video
          ref={(el) => {
            if (el && el.srcObject !== stream) el.srcObject = stream;
          }}
          className="qs-recorder-preview"
          autoPlay
          muted
          playsInline
          aria-label={t('send.recorder.preview')}
        />
      )}

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

      {state.phase === 'stopped' && (
        <p className="qs-hint" role="status" data-testid="recorder-saved">
          {state.kind === 'voice'
            ? t('send.recorder.savedVoice', { name: state.fileName })
            : t('send.recorder.savedVideo', { name: state.fileName })}
        </p>
      )}

      {state.phase === 'denied' && (
        <p className="qs-field-error" role="alert" data-testid="recorder-error">
          {state.reason === 'unavailable'
            ? t('send.recorder.unavailable')
            : state.kind === 'voice'
              ? t('send.recorder.deniedAudio')
              : t('send.recorder.deniedVideo')}
        </p>
      )}
    </div>
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
