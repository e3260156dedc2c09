import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { strokeIcon } from '@/components/icon-base';
import { fetchChangelog } from '@/lib/changelog';
import { importWithRetry } from '@/lib/import-with-retry';
import { useLoad } from '@/lib/use-load';
import {
  browserStorage,
  countLabel,
  countNew,
  isNewSince,
  newSince,
  readLastOpened,
  writeLastOpened,
} from '../last-opened';
import '../whats-new.css';

/** The panel brings the markdown renderer: it loads on the first opening only. */
const WhatsNewPanel = lazy(() =>
  importWithRetry(() => import('./whats-new-panel')).then((m) => ({ default: m.WhatsNewPanel })),
);

/**
 * The dashboard bar's What's-new button (spec §2 What's-new panel): how many changelog entries
 * came out since this user last opened the panel (or since the account was made), and the panel
 * itself; opening it resets the count.
 */
export function WhatsNewButton({ userId, createdAt }: { userId: string; createdAt?: number }) {
  const { t } = useTranslation('insights');
  const load = useLoad(fetchChangelog, []);
  const [lastOpened, setLastOpened] = useState(() => readLastOpened(browserStorage(), userId));
  // What counted as new when the panel opened: those entries stay marked while it is open.
  const [seenBefore, setSeenBefore] = useState<number | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    setLastOpened(readLastOpened(browserStorage(), userId));
  }, [userId]);

  const since = newSince(lastOpened, createdAt);
  const count = load.state === 'ready' ? countNew(load.data, since) : 0;
  const label = countLabel(count);

  const onOpen = () => {
    const now = Date.now();
    setSeenBefore(since);
    writeLastOpened(browserStorage(), userId, now);
    setLastOpened(now);
    setOpen(true);
  };

  return (
    <>
      <button
        type="button"
        className="whats-new-toggle"
        aria-haspopup="dialog"
        onClick={onOpen}
        title={t('whatsNew.button')}
        data-testid="whats-new"
      >
        <svg {...strokeIcon(16)} aria-hidden="true">
          <path d="M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z" />
          <path d="M19 16l.8 2.2L22 19l-2.2.8L19 22l-.8-2.2L16 19l2.2-.8z" />
        </svg>
        <span className="whats-new-label icon-only-label">{t('whatsNew.button')}</span>
        {label && (
          <>
            <span className="whats-new-count" aria-hidden="true" data-testid="whats-new-count">
              {label}
            </span>
            <span className="sr-only"> {t('whatsNew.newCount', { n: label })}</span>
          </>
        )}
      </button>
      {open && (
        <Suspense fallback={null}>
          <WhatsNewPanel load={load} isNew={(entry) => isNewSince(entry, seenBefore)} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
