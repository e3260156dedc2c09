import type { i18n as I18n } from 'i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EN_TEXTS as en } from '../../../helpers/catalogues';
import { FileSection } from '@/shared/send-form/components/file-section';
import { QuickSend } from '@/features/send/components/quick-send';
import type { RecorderState } from '@/features/send/recorder/recorder-machine';
import { RecorderPanel } from '@/features/send/recorder/recorder-panel';
import { RecorderView } from '@/features/send/recorder/recorder-view';
import { recordingSupported } from '@/features/send/recorder/use-recorder';
import { initialForm, setRecording } from '@/shared/send-form/send-state';
import { createTestI18n, renderHtml } from '../../../helpers/render-html';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
afterEach(() => vi.unstubAllGlobals());

const noop = () => undefined;
const view = (state: RecorderState) =>
  renderHtml(i18n, <RecorderView state={state} stream={null} onStart={noop} onStop={noop} onCancel={noop} />);

/** A browser that can record, as far as the feature check looks. */
function stubRecordingBrowser() {
  vi.stubGlobal('window', { MediaRecorder: class {}, navigator: { mediaDevices: { getUserMedia: async () => ({}) } } });
}

describe('recorder view', () => {
  it('idle: two keyboard-operable buttons, Record voice memo and Record video', () => {
    const html = view({ phase: 'idle' });
    expect(html.tag('record-voice')).toMatch(/^<button type="button"/);
    expect(html.tag('record-video')).toMatch(/^<button type="button"/);
    expect(html.text()).toContain('Record voice memo');
    expect(html.text()).toContain('Record video');
    expect(html.has('recorder-stop')).toBe(false);
  });

  it('countdown shows the number and a cancel, not the record buttons', () => {
    const html = view({ phase: 'countdown', kind: 'voice', remaining: 2 });
    expect(html.tag('recorder-countdown')).toContain('aria-label="Recording starts in 2"');
    expect(html.html).toMatch(/data-testid="recorder-countdown"[^>]*>2</);
    expect(html.has('record-voice')).toBe(false);
    expect(html.has('recorder-cancel')).toBe(true);
  });

  it('recording shows Stop and the elapsed time', () => {
    const html = view({ phase: 'recording', kind: 'voice', startedAt: 0, elapsedMs: 61_500 });
    expect(html.tag('recorder-stop')).toMatch(/^<button type="button"/);
    expect(html.html).toMatch(/data-testid="recorder-elapsed"[^>]*>1:01</);
    expect(html.text()).toContain('Recording voice memo');
  });

  it('a refused microphone says exactly "Can\'t get audio permission" as an alert, with the buttons back', () => {
    const html = view({ phase: 'denied', kind: 'voice', reason: 'permission' });
    expect(html.tag('recorder-error')).toContain('role="alert"');
    expect(html.text()).toContain("Can't get audio permission");
    expect(en.send.recorder.deniedAudio).toBe("Can't get audio permission");
    expect(html.has('record-voice')).toBe(true);
  });

  it('after stopping it says the recording was added', () => {
    const html = view({
      phase: 'stopped',
      kind: 'voice',
      fileName: 'voice-memo-2026-11-21T07-40-12.webm',
      size: 10,
      durationMs: 1000,
    });
    expect(html.text()).toContain('Voice memo added: voice-memo-2026-11-21T07-40-12.webm');
  });
});

describe('where recording is not possible', () => {
  it('is detected: no MediaRecorder or no getUserMedia', () => {
    expect(recordingSupported()).toBe(false);
    vi.stubGlobal('window', { navigator: { mediaDevices: { getUserMedia: async () => ({}) } } });
    expect(recordingSupported()).toBe(false);
    vi.stubGlobal('window', { MediaRecorder: class {}, navigator: {} });
    expect(recordingSupported()).toBe(false);
    stubRecordingBrowser();
    expect(recordingSupported()).toBe(true);
  });

  it("the quick-send form's server markup (the prerendered home) has the record buttons; the recorder panel has them where recording works", () => {
    // the build cannot know the browser: its HTML shows them, and a browser that cannot record
    // drops them once the app runs (recorder-support.dom.test.tsx)
    const prerendered = renderHtml(
      i18n,
      <MemoryRouter>
        <QuickSend />
      </MemoryRouter>,
    );
    expect(prerendered.has('record-voice')).toBe(true);
    expect(prerendered.has('record-video')).toBe(true);

    stubRecordingBrowser();
    const panel = renderHtml(i18n, <RecorderPanel onStarted={noop} onRecorded={noop} />);
    expect(panel.has('record-voice')).toBe(true);
    expect(panel.has('record-video')).toBe(true);
  });
});

describe('a recording in the file list', () => {
  it('is listed by name and size with a voice memo icon and a remove button', () => {
    const form = setRecording(initialForm(), 'voice', {
      fileName: 'voice-memo-2026-11-21T07-40-12.webm',
      blob: new Blob(['12345']),
    });
    const summary = { count: 1, bytes: 5, limitBytes: 1000, overLimit: false };
    const html = renderHtml(i18n, <FileSection files={form.files} summary={summary} onAdd={noop} onRemove={noop} />);
    expect(html.tag('picked-file')).toContain('data-file-name="voice-memo-2026-11-21T07-40-12.webm"');
    expect(html.tag('picked-file')).toContain('data-file-size="5"');
    expect(html.html).toContain('aria-label="Voice memo"');
    expect(html.html).toContain('aria-label="Remove voice-memo-2026-11-21T07-40-12.webm"');
  });
});
