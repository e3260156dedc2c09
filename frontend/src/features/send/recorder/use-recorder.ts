import { useEffect, useRef, useState } from 'react';
import { recordingSupported } from './recording-support';
import {
  IDLE,
  RecorderController,
  type RecorderMedia,
  type RecorderState,
  type Recording,
  type RecordingKind,
} from './recorder-machine';

export { recordingSupported };

/** The real devices behind the controller. */
function browserMedia(): RecorderMedia<MediaStream> {
  return {
    getUserMedia: (constraints) => navigator.mediaDevices.getUserMedia(constraints),
    createRecorder: (stream, mimeType, handlers) => {
      const recorder = new MediaRecorder(stream, MediaRecorder.isTypeSupported(mimeType) ? { mimeType } : {});
      recorder.ondataavailable = (event) => handlers.onData(event.data);
      recorder.onstop = () => handlers.onStop();
      recorder.onerror = () => handlers.onError();
      return {
        // A timeslice hands data over every second, so a long recording is not one giant buffer at stop.
        start: () => recorder.start(1000),
        stop: () => {
          if (recorder.state !== 'inactive') recorder.stop();
        },
      };
    },
  };
}

export interface RecorderCallbacks {
  onStarted(kind: RecordingKind): void;
  onRecorded(recording: Recording): void;
}

export interface RecorderHandle {
  readonly supported: boolean;
  readonly state: RecorderState;
  /** the open microphone/camera stream, for the video preview */
  readonly stream: MediaStream | null;
  start(kind: RecordingKind): void;
  stop(): void;
  cancel(): void;
}

/** The recorder controller for a component: state in React, devices closed on unmount. */
export function useRecorder(callbacks: RecorderCallbacks): RecorderHandle {
  const [supported] = useState(recordingSupported);
  const [state, setState] = useState<RecorderState>(IDLE);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const latest = useRef(callbacks);
  useEffect(() => {
    latest.current = callbacks;
  });
  const controller = useRef<RecorderController<MediaStream> | null>(null);

  useEffect(() => {
    if (!supported) return;
    const created = new RecorderController<MediaStream>(browserMedia(), {
      onState: setState,
      onStream: setStream,
      onStarted: (kind) => latest.current.onStarted(kind),
      onRecorded: (recording) => latest.current.onRecorded(recording),
    });
    controller.current = created;
    return () => {
      created.dispose();
      controller.current = null;
    };
  }, [supported]);

  return {
    supported,
    state,
    stream,
    start: (kind) => controller.current?.start(kind),
    stop: () => controller.current?.stop(),
    cancel: () => controller.current?.cancel(),
  };
}
