import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  COUNTDOWN_SECONDS,
  IDLE,
  RecorderController,
  formatElapsed,
  recorderReducer,
  recordingFileName,
  type RecorderHandlers,
  type RecorderMedia,
  type RecorderState,
  type Recording,
  type RecordingKind,
} from '@/features/send/recorder/recorder-machine';

class FakeTrack {
  stopped = false;
  stop() {
    this.stopped = true;
  }
}

class FakeStream {
  readonly tracks = [new FakeTrack(), new FakeTrack()];
  getTracks() {
    return this.tracks;
  }
  get closed() {
    return this.tracks.every((t) => t.stopped);
  }
}

/** Behaves like MediaRecorder: data then 'stop' arrive asynchronously after stop(). */
class FakeRecorder {
  state: 'inactive' | 'recording' = 'inactive';
  constructor(
    readonly stream: FakeStream,
    readonly mimeType: string,
    readonly handlers: RecorderHandlers,
  ) {}
  start() {
    this.state = 'recording';
  }
  /** a timeslice's worth of data */
  emit(text: string) {
    this.handlers.onData(new Blob([text]));
  }
  stop() {
    if (this.state === 'inactive') return;
    this.state = 'inactive';
    void Promise.resolve().then(() => {
      this.handlers.onData(new Blob(['|last']));
      this.handlers.onStop();
    });
  }
}

class Deferred<T> {
  resolve!: (value: T) => void;
  reject!: (error: unknown) => void;
  readonly promise = new Promise<T>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
}

class FakeMedia implements RecorderMedia<FakeStream> {
  readonly requests: MediaStreamConstraints[] = [];
  readonly streams: FakeStream[] = [];
  readonly recorders: FakeRecorder[] = [];
  /** null grants at once; an error refuses; a Deferred waits for the test (the permission prompt) */
  answer: Error | Deferred<FakeStream> | null = null;

  getUserMedia(constraints: MediaStreamConstraints): Promise<FakeStream> {
    this.requests.push(constraints);
    if (this.answer instanceof Deferred) return this.answer.promise;
    if (this.answer) return Promise.reject(this.answer);
    const stream = new FakeStream();
    this.streams.push(stream);
    return Promise.resolve(stream);
  }

  createRecorder(stream: FakeStream, mimeType: string, handlers: RecorderHandlers): FakeRecorder {
    const recorder = new FakeRecorder(stream, mimeType, handlers);
    this.recorders.push(recorder);
    return recorder;
  }
}

function domError(name: string): Error {
  const error = new Error(name);
  error.name = name;
  return error;
}

// 07:40:09 UTC; after the 3 s countdown recording starts at 07:40:12.
const CLICK_AT = Date.UTC(2026, 10, 21, 7, 40, 9);

let media: FakeMedia;
let states: RecorderState[];
let started: RecordingKind[];
let recorded: Recording[];
let streams: (FakeStream | null)[];
let controller: RecorderController<FakeStream>;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(CLICK_AT);
  media = new FakeMedia();
  states = [];
  started = [];
  recorded = [];
  streams = [];
  controller = new RecorderController(media, {
    onState: (s) => states.push(s),
    onStream: (s) => streams.push(s),
    onStarted: (k) => started.push(k),
    onRecorded: (r) => recorded.push(r),
  });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets the permission answer (a promise) arrive without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);
const phase = () => controller.current.phase;

async function recordFor(kind: RecordingKind, ms: number): Promise<void> {
  controller.start(kind);
  await settle();
  await vi.advanceTimersByTimeAsync(COUNTDOWN_SECONDS * 1000);
  expect(phase()).toBe('recording');
  await vi.advanceTimersByTimeAsync(ms);
  controller.stop();
  await settle();
}

describe('recording a voice memo', () => {
  it('asks for the microphone with echo cancellation, counts 3-2-1, records, and stops into a webm file', async () => {
    controller.start('voice');
    expect(controller.current).toEqual({ phase: 'requesting', kind: 'voice' });
    expect(media.requests).toEqual([{ audio: { echoCancellation: true } }]);

    await settle();
    expect(controller.current).toEqual({ phase: 'countdown', kind: 'voice', remaining: 3 });
    expect(started).toEqual(['voice']);
    expect(streams).toEqual([media.streams[0]]);
    await vi.advanceTimersByTimeAsync(999);
    expect(controller.current).toMatchObject({ phase: 'countdown', remaining: 3 });
    await vi.advanceTimersByTimeAsync(1);
    expect(controller.current).toMatchObject({ phase: 'countdown', remaining: 2 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(controller.current).toMatchObject({ phase: 'countdown', remaining: 1 });
    // Nothing is recorded during the countdown.
    expect(media.recorders).toHaveLength(0);

    await vi.advanceTimersByTimeAsync(1000);
    expect(controller.current).toEqual({ phase: 'recording', kind: 'voice', startedAt: CLICK_AT + 3000, elapsedMs: 0 });
    const recorder = media.recorders[0]!;
    expect(recorder.state).toBe('recording');
    expect(recorder.mimeType).toBe('audio/webm');

    recorder.emit('first');
    await vi.advanceTimersByTimeAsync(1500);
    expect(controller.current).toMatchObject({ phase: 'recording', elapsedMs: 1500 });

    controller.stop();
    expect(controller.current).toMatchObject({ phase: 'saving', durationMs: 1500 });
    // The microphone closes as soon as recording stops (spec §4).
    expect(media.streams[0]!.closed).toBe(true);
    expect(streams.at(-1)).toBeNull();

    await settle();
    expect(controller.current).toEqual({
      phase: 'stopped',
      kind: 'voice',
      fileName: 'voice-memo-2026-11-21T07-40-12.webm',
      size: 10,
      durationMs: 1500,
    });
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      kind: 'voice',
      fileName: 'voice-memo-2026-11-21T07-40-12.webm',
      durationMs: 1500,
    });
    expect(recorded[0]!.blob.type).toBe('audio/webm');
    expect(await recorded[0]!.blob.text()).toBe('first|last');
    expect(states.map((s) => s.phase)).toEqual([
      'requesting',
      'countdown',
      'countdown',
      'countdown',
      'recording',
      'recording',
      'recording',
      'recording',
      'recording',
      'recording',
      'recording',
      'saving',
      'stopped',
    ]);
  });

  it('keeps what was recorded when the recorder stops by itself (device unplugged)', async () => {
    controller.start('voice');
    await settle();
    await vi.advanceTimersByTimeAsync(3000 + 2000);
    const recorder = media.recorders[0]!;
    recorder.emit('bytes');
    recorder.stop();
    await settle();
    expect(controller.current).toMatchObject({ phase: 'stopped', durationMs: 2000 });
    expect(media.streams[0]!.closed).toBe(true);
    expect(await recorded[0]!.blob.text()).toBe('bytes|last');
  });
});

describe('recording a video', () => {
  it('asks for the camera at 640 by 480 with sound and names the file video-<timestamp>.webm', async () => {
    await recordFor('video', 1000);
    expect(media.requests).toEqual([
      { audio: { echoCancellation: true }, video: { width: { ideal: 640 }, height: { ideal: 480 } } },
    ]);
    expect(media.recorders[0]!.mimeType).toBe('video/webm');
    expect(recorded[0]).toMatchObject({ kind: 'video', fileName: 'video-2026-11-21T07-40-12.webm' });
    expect(recorded[0]!.blob.type).toBe('video/webm');
  });
});

describe('cancelling', () => {
  it('during the countdown closes the microphone and records nothing', async () => {
    controller.start('voice');
    await settle();
    await vi.advanceTimersByTimeAsync(1000);
    controller.cancel();
    expect(controller.current).toBe(IDLE);
    expect(media.streams[0]!.closed).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(controller.current).toBe(IDLE);
    expect(media.recorders).toHaveLength(0);
    expect(recorded).toHaveLength(0);
  });

  it('Stop before recording has begun is a cancel', async () => {
    controller.start('voice');
    await settle();
    controller.stop();
    expect(controller.current).toBe(IDLE);
    expect(media.streams[0]!.closed).toBe(true);
  });

  it('during recording throws the recording away', async () => {
    controller.start('voice');
    await settle();
    await vi.advanceTimersByTimeAsync(4000);
    media.recorders[0]!.emit('bytes');
    controller.cancel();
    await settle();
    expect(controller.current).toBe(IDLE);
    expect(media.streams[0]!.closed).toBe(true);
    expect(recorded).toHaveLength(0);
  });

  it('while the permission prompt is open: a late grant is closed at once and nothing starts', async () => {
    const prompt = new Deferred<FakeStream>();
    media.answer = prompt;
    controller.start('voice');
    controller.cancel();
    const late = new FakeStream();
    prompt.resolve(late);
    await settle();
    expect(late.closed).toBe(true);
    expect(controller.current).toBe(IDLE);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(controller.current).toBe(IDLE);
  });

  it('unmounting (dispose) mid-recording closes the devices and reports nothing more', async () => {
    controller.start('video');
    await settle();
    await vi.advanceTimersByTimeAsync(3500);
    const before = states.length;
    controller.dispose();
    await vi.advanceTimersByTimeAsync(5000);
    expect(media.streams[0]!.closed).toBe(true);
    expect(states).toHaveLength(before);
    expect(recorded).toHaveLength(0);
    controller.start('voice');
    expect(media.requests).toHaveLength(1);
  });
});

describe('one recording at a time; a new one clears the old', () => {
  it('ignores a second start while one is under way', async () => {
    controller.start('voice');
    controller.start('video');
    await settle();
    expect(media.requests).toHaveLength(1);
    expect(controller.current).toMatchObject({ kind: 'voice' });
  });

  it('a new recording starts from the stopped state and announces itself before recording', async () => {
    await recordFor('voice', 1000);
    expect(phase()).toBe('stopped');
    vi.setSystemTime(Date.UTC(2026, 10, 21, 8, 0, 0));
    controller.start('voice');
    await settle();
    expect(started).toEqual(['voice', 'voice']);
    expect(controller.current).toMatchObject({ phase: 'countdown', remaining: 3 });
    await vi.advanceTimersByTimeAsync(3000 + 700);
    controller.stop();
    await settle();
    expect(recorded.map((r) => r.fileName)).toEqual([
      'voice-memo-2026-11-21T07-40-12.webm',
      'voice-memo-2026-11-21T08-00-03.webm',
    ]);
    expect(media.streams.every((s) => s.closed)).toBe(true);
  });
});

describe('permission', () => {
  it('refused: the denied state (the alert), no countdown, and a retry is possible', async () => {
    media.answer = domError('NotAllowedError');
    controller.start('voice');
    await settle();
    expect(controller.current).toEqual({ phase: 'denied', kind: 'voice', reason: 'permission' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(controller.current.phase).toBe('denied');
    expect(started).toEqual([]);

    media.answer = null;
    controller.start('voice');
    await settle();
    expect(controller.current.phase).toBe('countdown');
  });

  it('no device, or a device that cannot be opened, is told apart from a refusal', async () => {
    media.answer = domError('NotFoundError');
    controller.start('video');
    await settle();
    expect(controller.current).toEqual({ phase: 'denied', kind: 'video', reason: 'unavailable' });
  });

  it('a recorder error mid-recording closes the devices and reports the device as unusable', async () => {
    controller.start('voice');
    await settle();
    await vi.advanceTimersByTimeAsync(3500);
    media.recorders[0]!.handlers.onError();
    expect(controller.current).toEqual({ phase: 'denied', kind: 'voice', reason: 'unavailable' });
    expect(media.streams[0]!.closed).toBe(true);
    await settle();
    expect(recorded).toHaveLength(0);
  });
});

describe('recorderReducer', () => {
  it('ignores events that do not fit the state', () => {
    expect(recorderReducer(IDLE, { type: 'granted' })).toBe(IDLE);
    expect(recorderReducer(IDLE, { type: 'tick', now: 1 })).toBe(IDLE);
    expect(recorderReducer(IDLE, { type: 'stop', now: 1 })).toBe(IDLE);
    expect(recorderReducer(IDLE, { type: 'denied', reason: 'permission' })).toBe(IDLE);
    const recording: RecorderState = { phase: 'recording', kind: 'voice', startedAt: 10, elapsedMs: 0 };
    expect(recorderReducer(recording, { type: 'start', kind: 'video' })).toBe(recording);
    expect(recorderReducer(recording, { type: 'saved', fileName: 'x', size: 1 })).toBe(recording);
  });

  it('walks idle -> requesting -> countdown 3, 2, 1 -> recording -> saving -> stopped', () => {
    let s = recorderReducer(IDLE, { type: 'start', kind: 'voice' });
    s = recorderReducer(s, { type: 'granted' });
    const seen: number[] = [];
    while (s.phase === 'countdown') {
      seen.push(s.remaining);
      s = recorderReducer(s, { type: 'tick', now: 100 });
    }
    expect(seen).toEqual([3, 2, 1]);
    expect(s).toEqual({ phase: 'recording', kind: 'voice', startedAt: 100, elapsedMs: 0 });
    s = recorderReducer(s, { type: 'stop', now: 2100 });
    expect(s).toEqual({ phase: 'saving', kind: 'voice', startedAt: 100, durationMs: 2000 });
    s = recorderReducer(s, { type: 'saved', fileName: 'voice-memo-x.webm', size: 5 });
    expect(s).toEqual({ phase: 'stopped', kind: 'voice', fileName: 'voice-memo-x.webm', size: 5, durationMs: 2000 });
    expect(recorderReducer(s, { type: 'start', kind: 'video' })).toEqual({ phase: 'requesting', kind: 'video' });
  });
});

describe('names and clock text', () => {
  it('names recordings by their UTC start time without colons', () => {
    expect(recordingFileName('voice', Date.UTC(2026, 10, 21, 7, 40, 12, 999))).toBe(
      'voice-memo-2026-11-21T07-40-12.webm',
    );
    expect(recordingFileName('video', Date.UTC(2025, 0, 2, 3, 4, 5))).toBe('video-2025-01-02T03-04-05.webm');
  });

  it('shows elapsed time as m:ss', () => {
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(1999)).toBe('0:01');
    expect(formatElapsed(65_000)).toBe('1:05');
    expect(formatElapsed(12 * 60_000 + 30_000)).toBe('12:30');
  });
});
