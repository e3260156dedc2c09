// @vitest-environment happy-dom
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LazyRecorderPanel } from '@/features/send/recorder/lazy-recorder-panel';
import { mount } from '../../../helpers/dom-render';
import { createTestI18n } from '../../../helpers/render-html';

/**
 * The record buttons in the browser: the prerendered home has them (recorder-view.test.tsx), and
 * once the app runs a browser without MediaRecorder or getUserMedia drops them, one with both
 * keeps them.
 */
let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});
afterEach(() => vi.unstubAllGlobals());

const noop = () => undefined;
const panel = () =>
  mount(
    <I18nextProvider i18n={i18n}>
      <LazyRecorderPanel onStarted={noop} onRecorded={noop} />
    </I18nextProvider>,
  );

describe('record buttons once the app runs', () => {
  it('none where the browser cannot record', () => {
    vi.stubGlobal('MediaRecorder', undefined);
    const view = panel();
    expect(view.byTestId('record-voice')).toBeNull();
    expect(view.byTestId('record-video')).toBeNull();
    view.unmount();
  });

  it('both where it can', () => {
    vi.stubGlobal('MediaRecorder', class {});
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: async () => ({}) } });
    const view = panel();
    expect(view.byTestId('record-voice')).not.toBeNull();
    expect(view.byTestId('record-video')).not.toBeNull();
    view.unmount();
  });
});
