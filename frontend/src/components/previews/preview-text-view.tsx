import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TEXT_PREVIEW_MAX_BYTES } from '@domain/previews';
import { formatBytes } from '@domain/format';

/** The start of a text file, read by a ranged GET (never a whole large log), shown as text, never as markup. */
export function TextView({ url, name, onBroken }: { url: string; name: string; onBroken: () => void }) {
  const { t } = useTranslation('previews');
  const [text, setText] = useState<{ body: string; truncated: boolean } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetch(url, { headers: { range: `bytes=0-${TEXT_PREVIEW_MAX_BYTES - 1}` }, signal: controller.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const bytes = new Uint8Array(await res.arrayBuffer());
        const total = Number(/\/(\d+)$/u.exec(res.headers.get('content-range') ?? '')?.[1] ?? bytes.length);
        const body = new TextDecoder('utf-8').decode(bytes.subarray(0, TEXT_PREVIEW_MAX_BYTES));
        setText({ body, truncated: total > TEXT_PREVIEW_MAX_BYTES || bytes.length > TEXT_PREVIEW_MAX_BYTES });
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        setFailed(true);
        onBroken();
      });
    return () => controller.abort();
  }, [url]);
  if (failed) return <p className="pv-note">{t('viewer.loadFailed')}</p>;
  if (!text) return <p className="pv-note">{t('viewer.loading')}</p>;
  return (
    <>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the name is what a screen reader says when the focus lands on the text; a role would cost the download page's first load */}
      <pre
        className="pv-text"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the text scrolls, so it must take keyboard focus (axe: scrollable-region-focusable)
        tabIndex={0}
        aria-label={name}
        data-testid="preview-text"
      >
        {text.body}
      </pre>
      {text.truncated && (
        <p className="pv-note">{t('viewer.textTruncated', { size: formatBytes(TEXT_PREVIEW_MAX_BYTES) })}</p>
      )}
    </>
  );
}
