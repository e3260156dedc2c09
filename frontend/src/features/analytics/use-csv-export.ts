import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dashPaths } from '@/app/dash-paths';
import { fetchAllDownloadRows } from './analytics-api';
import { csvFileName, downloadsCsv } from './csv';
import type { DayRange } from './date-range';

/** Hands the browser a file made here (the CSV export). */
function saveFile(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export type ExportState = 'idle' | 'busy' | 'empty' | 'failed';

/** The CSV export of every download in the range, with the country names the page shows. */
export function useCsvExport(range: DayRange, countryName: (code: string) => string) {
  const { t } = useTranslation('insights');
  const [exporting, setExporting] = useState<ExportState>('idle');

  const onExport = async () => {
    setExporting('busy');
    try {
      const rows = await fetchAllDownloadRows(range.from, range.to);
      if (rows.length === 0) {
        setExporting('empty');
        return;
      }
      const csv = downloadsCsv(rows, {
        header: [
          t('analytics.csv.date'),
          t('analytics.csv.transfer'),
          t('analytics.csv.file'),
          t('analytics.csv.origin'),
          t('analytics.csv.country'),
          t('analytics.csv.countryCode'),
          t('analytics.csv.recipient'),
          t('analytics.csv.receipts'),
        ],
        origin: { file: t('analytics.csv.originFile'), zip: t('analytics.csv.originZip') },
        countryName,
        // the TransferModal lists the transfer's deliveries, each with its signed receipt
        receiptsLink: (slug) => `${window.location.origin}${dashPaths.transfer(slug)}#receipts`,
      });
      saveFile(csv, csvFileName(range.from, range.to));
      setExporting('idle');
    } catch {
      setExporting('failed');
    }
  };

  return { exporting, onExport };
}
