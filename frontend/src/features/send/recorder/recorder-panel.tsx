import { useEffect } from 'react';
import type { Recording, RecordingKind } from './recorder-machine';
import { RecorderView } from './recorder-view';
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
