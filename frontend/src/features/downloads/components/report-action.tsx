import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { importWithRetry } from '@/lib/import-with-retry';

type FormProps = { id: string; onClose: () => void };

/**
 * 'Report this transfer' under the files. The form and its texts arrive in their own
 * chunk when the visitor opens it, so the download page's first load carries only this button.
 */
export function ReportAction({ id }: { id: string }) {
  const { t } = useTranslation();
  const [Form, setForm] = useState<ComponentType<FormProps> | null>(null);
  const [open, setOpen] = useState(false);

  function toggle() {
    if (open) {
      setOpen(false);
      return;
    }
    setOpen(true);
    if (!Form) {
      importWithRetry(() => import('@/features/downloads/components/report-form')).then(
        (m) => m.ready.then(() => setForm(() => m.ReportForm)),
        () => setOpen(false),
      );
    }
  }

  return (
    <div className="download-report-wrap">
      <button
        type="button"
        className="btn-link download-report-toggle"
        aria-expanded={open}
        onClick={toggle}
        data-testid="report-open"
      >
        {t('download.report')}
      </button>
      {open && Form && <Form id={id} onClose={() => setOpen(false)} />}
    </div>
  );
}
