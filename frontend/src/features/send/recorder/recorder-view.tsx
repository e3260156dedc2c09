import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isBusy, type RecorderState, type RecordingKind } from './recorder-machine';
import { MicIcon, VideoIcon } from '@/components/recorder-icons';
import { RecorderLive } from './recorder-live';

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

      <RecorderLive state={state} actionButton={actionButton} onStop={onStop} onCancel={onCancel} />

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
