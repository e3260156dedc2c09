import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTACTS_CSV_FILENAME, CSV_IMPORT_MAX_BYTES, type ContactImportResult } from '@domain/contacts-api';
import { exportContacts, importContacts } from '../api/contacts-api';
import { useContactAction } from '../use-contact-action';
import type { Notice } from '../notice';

/** Import (a .csv file, its counts shown) and export (saved as contacts.csv). */
export function CsvTools({
  onImported,
  onNotice,
}: {
  onImported(result: ContactImportResult): void;
  onNotice(notice: Notice): void;
}) {
  const { t } = useTranslation('contacts');
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const importing = useContactAction();
  const exporting = useContactAction();
  // a refusal is said in the page's notice
  const failed = { onError: (_err: unknown, text: string) => onNotice({ kind: 'error', text }) };
  const [result, setResult] = useState<ContactImportResult | null>(null);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setResult(null);
    if (file.size > CSV_IMPORT_MAX_BYTES) {
      onNotice({ kind: 'error', text: t('problems.csvTooLarge') });
      return;
    }
    await importing.run(async () => {
      let text: string;
      try {
        text = await file.text();
      } catch {
        onNotice({ kind: 'error', text: t('problems.readFailed') });
        return;
      }
      const answer = await importContacts(text);
      setResult(answer);
      onImported(answer);
    }, failed);
    // the same file may be picked again after a fix
    if (fileRef.current) fileRef.current.value = '';
  };

  const onExport = () =>
    exporting.run(async () => {
      const csv = await exportContacts();
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = CONTACTS_CSV_FILENAME;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    }, failed);

  const counts = result
    ? (
        [
          ['added', result.added],
          ['updated', result.updated],
          ['unchanged', result.unchanged],
          ['skipped', result.skippedWithoutEmail],
          ['invalid', result.invalid],
          ['duplicates', result.duplicates],
          ['overLimit', result.overLimit],
        ] as const
      ).filter(([key, count]) => key === 'added' || count > 0)
    : [];

  return (
    <section className="card ct-csv" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="ct-subtitle">
        {t('csv.title')}
      </h2>
      <p className="muted ct-hint" id={`${id}-hint`}>
        {t('csv.hint')}
      </p>
      <div className="ct-csv-actions">
        <label className={`btn btn-ghost btn-sm ct-file${importing.busy ? ' ct-busy' : ''}`}>
          {importing.busy ? t('csv.importing') : t('csv.import')}
          <input
            ref={fileRef}
            type="file"
            accept=".csv,text/csv"
            className="ct-file-input"
            aria-describedby={`${id}-hint`}
            disabled={importing.busy}
            onChange={(e) => void onFile(e.target.files?.[0])}
            data-testid="contacts-import-input"
          />
        </label>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => void onExport()}
          disabled={exporting.busy}
          data-testid="contacts-export"
        >
          {exporting.busy ? t('csv.exporting') : t('csv.export')}
        </button>
      </div>
      {result && (
        <div className="ct-result" role="status" data-testid="contacts-import-result">
          <p className="ct-result-title">{t('csv.resultTitle', { rows: result.rows })}</p>
          <ul>
            {counts.map(([key, count]) => (
              <li key={key} data-testid={`import-${key}`}>
                {t(`csv.counts.${key}`, { count })}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
