/** Its own module: the send form asks it before the recorder itself is loaded. */

/** Recording needs both getUserMedia and MediaRecorder; without either the recorder is not offered. */
export function recordingSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.MediaRecorder === 'function' &&
    typeof window.navigator?.mediaDevices?.getUserMedia === 'function'
  );
}
