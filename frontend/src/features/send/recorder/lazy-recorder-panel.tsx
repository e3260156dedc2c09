import { useState, useSyncExternalStore, type ComponentType, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { importWithRetry } from '@/lib/import-with-retry';
import type { Recording, RecordingKind } from './recorder-machine';
import type { RecorderPanel } from './recorder-panel';
import { MicIcon, VideoIcon } from '@/components/recorder-icons';
import { recordingSupported } from './recording-support';

const never = () => () => undefined;

interface LazyRecorderPanelProps {
  onStarted(kind: RecordingKind): void;
  onRecorded(recording: Recording): void;
}

/**
 * The recorder's two buttons, with the recorder itself (controller, preview, countdown) loaded
 * when one is first pressed, so the send form does not carry it. The buttons are those of
 * RecorderView's idle face; once loaded, RecorderPanel takes over and starts the pressed kind.
 */
export function LazyRecorderPanel({ onStarted, onRecorded }: LazyRecorderPanelProps) {
  const { t } = useTranslation();
  // The prerendered home shows the buttons (every current browser records), so hydrating it
  // moves nothing; a browser that cannot record drops them right after.
  const supported = useSyncExternalStore(never, recordingSupported, () => true);
  const [loaded, setLoaded] = useState<{
    Panel: ComponentType<ComponentProps<typeof RecorderPanel>>;
    kind: RecordingKind;
  } | null>(null);
  const [loading, setLoading] = useState(false);
  if (!supported) return null;
  if (loaded) return <loaded.Panel onStarted={onStarted} onRecorded={onRecorded} startWith={loaded.kind} />;

  const open = (kind: RecordingKind) => {
    if (loading) return;
    setLoading(true);
    importWithRetry(() => import('./recorder-panel')).then(
      (module) => setLoaded({ Panel: module.RecorderPanel, kind }),
      () => setLoading(false),
    );
  };
  return (
    <div className="qs-recorder" data-testid="recorder" data-phase="idle" aria-busy={loading || undefined}>
      <div className="qs-recorder-buttons">
        <button type="button" className="qs-link-button" onClick={() => open('voice')} data-testid="record-voice">
          <MicIcon /> {t('send.recorder.recordVoice')}
        </button>
        <button type="button" className="qs-link-button" onClick={() => open('video')} data-testid="record-video">
          <VideoIcon /> {t('send.recorder.recordVideo')}
        </button>
      </div>
    </div>
  );
}
