/**
 * The in-browser recorder of spec §2 and §4 (voice memo and video): the states as a pure
 * reducer, and a controller that drives them with timers and the media devices. Free of React
 * and of the DOM's media types, so a fake microphone and fake timers can run it in tests.
 */

import type { RecordingKind } from '@/shared/upload/picked-files';

export type { RecordingKind };

/** Spec §9: the countdown before recording starts. */
export const COUNTDOWN_SECONDS = 3;
/** Spec §4: recorded video is 640 by 480. */
export const VIDEO_SIZE = { width: 640, height: 480 } as const;
/** How often the elapsed time is refreshed while recording. */
export const ELAPSED_REFRESH_MS = 250;

export type DeniedReason = 'permission' | 'unavailable';

export type RecorderState =
  | { readonly phase: 'idle' }
  /** asking for the microphone (and camera); the browser may be showing its prompt */
  | { readonly phase: 'requesting'; readonly kind: RecordingKind }
  | { readonly phase: 'countdown'; readonly kind: RecordingKind; readonly remaining: number }
  | {
      readonly phase: 'recording';
      readonly kind: RecordingKind;
      readonly startedAt: number;
      readonly elapsedMs: number;
    }
  /** stopped, waiting for the recorder's last data */
  | { readonly phase: 'saving'; readonly kind: RecordingKind; readonly startedAt: number; readonly durationMs: number }
  | {
      readonly phase: 'stopped';
      readonly kind: RecordingKind;
      readonly fileName: string;
      readonly size: number;
      readonly durationMs: number;
    }
  | { readonly phase: 'denied'; readonly kind: RecordingKind; readonly reason: DeniedReason };

export type RecorderEvent =
  | { readonly type: 'start'; readonly kind: RecordingKind }
  | { readonly type: 'granted' }
  | { readonly type: 'denied'; readonly reason: DeniedReason }
  | { readonly type: 'tick'; readonly now: number }
  | { readonly type: 'stop'; readonly now: number }
  | { readonly type: 'saved'; readonly fileName: string; readonly size: number }
  | { readonly type: 'cancel' };

export const IDLE: RecorderState = { phase: 'idle' };

/** A recording is under way (or being asked for): no second one may start. */
export function isBusy(state: RecorderState): boolean {
  return (
    state.phase === 'requesting' ||
    state.phase === 'countdown' ||
    state.phase === 'recording' ||
    state.phase === 'saving'
  );
}

/** Events that do not apply to the current state leave it as it is. */
export function recorderReducer(state: RecorderState, event: RecorderEvent): RecorderState {
  switch (event.type) {
    case 'start':
      return isBusy(state) ? state : { phase: 'requesting', kind: event.kind };
    case 'granted':
      return state.phase === 'requesting'
        ? { phase: 'countdown', kind: state.kind, remaining: COUNTDOWN_SECONDS }
        : state;
    case 'denied':
      return isBusy(state)
        ? { phase: 'denied', kind: (state as { kind: RecordingKind }).kind, reason: event.reason }
        : state;
    case 'tick':
      if (state.phase === 'countdown') {
        return state.remaining > 1
          ? { ...state, remaining: state.remaining - 1 }
          : { phase: 'recording', kind: state.kind, startedAt: event.now, elapsedMs: 0 };
      }
      if (state.phase === 'recording') return { ...state, elapsedMs: Math.max(0, event.now - state.startedAt) };
      return state;
    case 'stop':
      if (state.phase === 'recording') {
        return {
          phase: 'saving',
          kind: state.kind,
          startedAt: state.startedAt,
          durationMs: Math.max(0, event.now - state.startedAt),
        };
      }
      // Stop before anything was recorded is a cancel.
      return state.phase === 'requesting' || state.phase === 'countdown' ? IDLE : state;
    case 'saved':
      return state.phase === 'saving'
        ? {
            phase: 'stopped',
            kind: state.kind,
            fileName: event.fileName,
            size: event.size,
            durationMs: state.durationMs,
          }
        : state;
    case 'cancel':
      return IDLE;
  }
}

/** 'voice-memo-2026-11-21T07-40-12.webm' / 'video-2026-11-21T07-40-12.webm' (UTC, no colons: safe on every OS). */
export function recordingFileName(kind: RecordingKind, at: number): string {
  const stamp = new Date(at).toISOString().slice(0, 19).replace(/:/gu, '-');
  return `${kind === 'voice' ? 'voice-memo' : 'video'}-${stamp}.webm`;
}

export function recordingMimeType(kind: RecordingKind): string {
  return kind === 'voice' ? 'audio/webm' : 'video/webm';
}

/** Spec §4: voice memos with echo cancellation; video at 640 by 480, with its sound. */
export function mediaConstraints(kind: RecordingKind): MediaStreamConstraints {
  return kind === 'voice'
    ? { audio: { echoCancellation: true } }
    : {
        audio: { echoCancellation: true },
        video: { width: { ideal: VIDEO_SIZE.width }, height: { ideal: VIDEO_SIZE.height } },
      };
}

/** '0:07', '12:30' */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** getUserMedia failures: a refusal (by the user or a policy) versus no usable device. */
export function deniedReasonOf(error: unknown): DeniedReason {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError'
    ? 'permission'
    : 'unavailable';
}

// ---- controller ----------------------------------------------------------------------------------

export interface MediaStreamLike {
  getTracks(): readonly { stop(): void }[];
}

export interface RecorderHandlers {
  onData(chunk: Blob): void;
  /** the recorder has handed over its last data */
  onStop(): void;
  onError(): void;
}

export interface RecorderLike {
  start(): void;
  stop(): void;
}

/** The browser's media devices, narrowed to what recording needs. */
export interface RecorderMedia<S extends MediaStreamLike> {
  getUserMedia(constraints: MediaStreamConstraints): Promise<S>;
  createRecorder(stream: S, mimeType: string, handlers: RecorderHandlers): RecorderLike;
}

export interface Recording {
  readonly kind: RecordingKind;
  readonly fileName: string;
  readonly blob: Blob;
  readonly durationMs: number;
}

export interface RecorderListener<S extends MediaStreamLike> {
  onState(state: RecorderState): void;
  /** the open stream (for a camera preview), null once it is closed */
  onStream?(stream: S | null): void;
  /** a new recording has begun its countdown: the previous one of this kind goes (spec §4) */
  onStarted?(kind: RecordingKind): void;
  onRecorded?(recording: Recording): void;
}

/**
 * Runs one recording at a time: permission, the 3-2-1 countdown, recording with an elapsed
 * clock, stop. The microphone (and camera) is closed as soon as recording stops, is cancelled
 * or fails, so the browser's recording indicator goes off (spec §4).
 */
export class RecorderController<S extends MediaStreamLike> {
  private state: RecorderState = IDLE;
  private stream: S | null = null;
  private recorder: RecorderLike | null = null;
  private chunks: Blob[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  /** bumped by every start and cancel, so late answers of an abandoned attempt are ignored */
  private attempt = 0;
  private disposed = false;

  constructor(
    private readonly media: RecorderMedia<S>,
    private readonly listener: RecorderListener<S>,
    private readonly now: () => number = Date.now,
  ) {}

  get current(): RecorderState {
    return this.state;
  }

  start(kind: RecordingKind): void {
    if (this.disposed || isBusy(this.state)) return;
    const attempt = ++this.attempt;
    this.dispatch({ type: 'start', kind });
    let request: Promise<S>;
    try {
      request = this.media.getUserMedia(mediaConstraints(kind));
    } catch (error) {
      request = Promise.reject(error);
    }
    request.then(
      (stream) => {
        if (attempt !== this.attempt || this.state.phase !== 'requesting') {
          stopTracks(stream);
          return;
        }
        this.stream = stream;
        this.listener.onStream?.(stream);
        this.dispatch({ type: 'granted' });
        this.listener.onStarted?.(kind);
        this.timer = setInterval(() => this.countdownTick(attempt), 1000);
      },
      (error: unknown) => {
        if (attempt !== this.attempt || this.state.phase !== 'requesting') return;
        this.dispatch({ type: 'denied', reason: deniedReasonOf(error) });
      },
    );
  }

  /** Ends the recording and keeps it; before recording has begun it is a cancel. */
  stop(): void {
    if (this.state.phase === 'recording') {
      this.clearTimer();
      this.dispatch({ type: 'stop', now: this.now() });
      const recorder = this.recorder;
      try {
        recorder?.stop();
      } finally {
        this.releaseStream();
      }
    } else if (this.state.phase === 'requesting' || this.state.phase === 'countdown') {
      this.cancel();
    }
  }

  /** Drops whatever is under way without keeping it; also dismisses a finished or denied state. */
  cancel(): void {
    this.attempt += 1;
    this.abandon();
    this.dispatch({ type: 'cancel' });
  }

  /** The owner goes away (unmount): close everything, report nothing more. */
  dispose(): void {
    this.attempt += 1;
    this.disposed = true;
    this.abandon();
  }

  private countdownTick(attempt: number): void {
    if (attempt !== this.attempt) return;
    this.dispatch({ type: 'tick', now: this.now() });
    if (this.state.phase !== 'recording') return;
    this.clearTimer();
    this.beginRecording(attempt);
  }

  private beginRecording(attempt: number): void {
    const stream = this.stream;
    const kind = (this.state as { kind: RecordingKind }).kind;
    if (!stream) return;
    this.chunks = [];
    try {
      this.recorder = this.media.createRecorder(stream, recordingMimeType(kind), {
        onData: (chunk) => {
          if (attempt === this.attempt && chunk.size > 0) this.chunks.push(chunk);
        },
        onStop: () => {
          if (attempt === this.attempt) this.finish();
        },
        onError: () => {
          if (attempt === this.attempt) this.fail();
        },
      });
      this.recorder.start();
    } catch {
      this.fail();
      return;
    }
    this.timer = setInterval(() => {
      if (attempt === this.attempt) this.dispatch({ type: 'tick', now: this.now() });
    }, ELAPSED_REFRESH_MS);
  }

  /** The recorder's last data is in (after stop, or because the device went away). */
  private finish(): void {
    if (this.state.phase === 'recording') {
      // The recorder stopped by itself (track ended): keep what it recorded.
      this.clearTimer();
      this.dispatch({ type: 'stop', now: this.now() });
      this.releaseStream();
    }
    const state = this.state;
    if (state.phase !== 'saving') return;
    this.recorder = null;
    const blob = new Blob(this.chunks, { type: recordingMimeType(state.kind) });
    this.chunks = [];
    const fileName = recordingFileName(state.kind, state.startedAt);
    this.dispatch({ type: 'saved', fileName, size: blob.size });
    this.listener.onRecorded?.({ kind: state.kind, fileName, blob, durationMs: state.durationMs });
  }

  private fail(): void {
    this.attempt += 1;
    this.abandon();
    // A recorder that errors has no usable device behind it; the reducer turns this into 'denied'.
    this.dispatch({ type: 'denied', reason: 'unavailable' });
  }

  private abandon(): void {
    this.clearTimer();
    const recorder = this.recorder;
    this.recorder = null;
    this.chunks = [];
    try {
      recorder?.stop();
    } catch {
      // already inactive
    }
    this.releaseStream();
  }

  private releaseStream(): void {
    if (!this.stream) return;
    stopTracks(this.stream);
    this.stream = null;
    if (!this.disposed) this.listener.onStream?.(null);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private dispatch(event: RecorderEvent): void {
    const next = recorderReducer(this.state, event);
    if (next === this.state) return;
    this.state = next;
    if (!this.disposed) this.listener.onState(next);
  }
}

function stopTracks(stream: MediaStreamLike): void {
  for (const track of stream.getTracks()) track.stop();
}
