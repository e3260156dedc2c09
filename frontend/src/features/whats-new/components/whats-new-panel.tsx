import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChangelogEntry } from '@domain/dashboard-api';
import { ChangelogEntries } from '@/components/changelog-entries';
import { PageLoading } from '@/components/page-loading';
import { errorTextOf } from '@/i18n/error-keys';
import type { ChangelogLoad } from '../changelog-load';

/**
 * The what's-new panel: a modal dialog (the browser's own, so focus stays inside and Escape
 * closes it) listing the changelog, entries the reader has not seen marked New.
 */
export function WhatsNewPanel({
  load,
  isNew,
  onClose,
}: {
  load: ChangelogLoad;
  isNew: (entry: ChangelogEntry) => boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('insights');
  const { t: tApp } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    return () => dialog.close();
  }, []);

  let body: ReactNode;
  if (load.state === 'loading') body = <PageLoading />;
  else if (load.state === 'failed') {
    const text = errorTextOf(load.error);
    body = <p role="alert">{tApp(text.key, text.params)}</p>;
  } else if (load.data.length === 0) body = <p>{t('whatsNew.empty')}</p>;
  else body = <ChangelogEntries entries={load.data} headingLevel={3} isNew={isNew} newLabel={t('whatsNew.unseen')} />;

  return (
    <dialog
      ref={ref}
      className="whats-new-panel"
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === ref.current) ref.current.close();
      }}
      data-testid="whats-new-panel"
    >
      <div className="panel-head whats-new-head">
        <h2 id={titleId}>{t('whatsNew.title')}</h2>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => ref.current?.close()}>
          {t('whatsNew.close')}
        </button>
      </div>
      <div className="whats-new-body">{body}</div>
    </dialog>
  );
}
