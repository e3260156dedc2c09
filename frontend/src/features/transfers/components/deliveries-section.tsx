import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { DeliveryRow } from '@domain/receipts-api';
import { receiptFileName } from '@domain/receipt-format';
import { DataTable } from '@/components/table-head';
import { paths } from '@/app/paths';
import { importWithRetry } from '@/lib/import-with-retry';
import { useLoad } from '@/lib/use-load';
import { startBrowserDownload } from '@/shared/downloads/start-browser-download';
import { fetchDeliveries, fetchReceipt } from '../api/transfer-modal-api';
import { countryName, formatDateTime } from '../transfer-format';
import { LoadFailed } from './load-failed';

type ReceiptKind = 'json' | 'pdf';

/** Saves a receipt the browser made (a blob URL named after the receipt). */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  startBrowserDownload(url, fileName);
  // the click has handed the blob to the download by the next task
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

async function downloadReceipt(slug: string, deliveryId: string, kind: ReceiptKind): Promise<void> {
  const doc = await fetchReceipt(slug, deliveryId);
  const json = `${JSON.stringify(doc, null, 2)}\n`;
  if (kind === 'json') {
    saveBlob(new Blob([json], { type: 'application/json' }), receiptFileName(doc.receipt, 'json'));
    return;
  }
  // pdf-lib only loads when a PDF is asked for
  const { receiptPdf } = await importWithRetry(() => import('../receipt-pdf'));
  const bytes = await receiptPdf(doc, json, `${window.location.origin}${paths.verify()}`);
  saveBlob(new Blob([bytes as BlobPart], { type: 'application/pdf' }), receiptFileName(doc.receipt, 'pdf'));
}

/**
 * Each download served to the end (a delivery) with its signed receipt, as JSON or PDF: for the
 * transfer's sender (or team admin) only, like the modal's actions.
 */
export function DeliveriesSection({ slug }: { slug: string }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const load = useLoad((signal) => fetchDeliveries(slug, signal), [slug]);
  const [busy, setBusy] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  const get = async (row: DeliveryRow, kind: ReceiptKind) => {
    setBusy(`${row.deliveryId}:${kind}`);
    setFailed(null);
    try {
      await downloadReceipt(slug, row.deliveryId, kind);
    } catch {
      setFailed(row.deliveryId);
    } finally {
      setBusy(null);
    }
  };

  // The analytics CSV's receipts link opens the modal at its receipts: scrolled there once, when listed.
  const { hash } = useLocation();
  const sectionRef = useRef<HTMLElement>(null);
  const scrolledFor = useRef('');
  const listed = load.state === 'ready';
  useEffect(() => {
    if (!listed || hash !== '#receipts' || scrolledFor.current === slug) return;
    scrolledFor.current = slug;
    sectionRef.current?.scrollIntoView({ block: 'start' });
  }, [listed, hash, slug]);

  const recipientOf = (row: DeliveryRow) =>
    row.recipient.kind === 'verified'
      ? t('receipts.verified', { email: row.recipient.email })
      : row.recipient.kind === 'personal'
        ? t('receipts.personal', { email: row.recipient.email })
        : t('receipts.anyone');

  return (
    <section
      ref={sectionRef}
      className="tr-section"
      aria-labelledby={id}
      id="receipts"
      data-testid="transfer-deliveries"
    >
      <h3 id={id}>{t('receipts.title')}</h3>
      <p className="muted">{t('receipts.intro')}</p>
      {load.state === 'loading' ? (
        <p className="muted" role="status">
          {t('modal.loading')}
        </p>
      ) : load.state === 'failed' ? (
        <LoadFailed error={load.error} onRetry={load.reload} />
      ) : load.data.deliveries.length === 0 ? (
        <p className="muted">{t('receipts.none')}</p>
      ) : (
        <DataTable
          wrapClassName="tr-table-wrap"
          className="tr-table tr-table-compact"
          testId="transfer-deliveries-table"
          columns={[
            t('receipts.columns.date'),
            t('receipts.columns.recipient'),
            t('receipts.columns.country'),
            t('receipts.columns.what'),
            t('receipts.columns.receipt'),
          ]}
        >
          {load.data.deliveries.map((row) => (
            <tr key={row.deliveryId} id={`receipt-${row.deliveryId}`} data-testid="delivery-row">
              <td className="tr-nowrap">{formatDateTime(row.at, lng)}</td>
              <td className="tr-break">{recipientOf(row)}</td>
              <td>{countryName(row.countryCode, lng) ?? t('modal.unknownCountry')}</td>
              <td className="tr-break">
                {row.what === 'zip' ? t('modal.zip') : row.fileName}
                {!row.servedWhole && <span className="muted"> · {t('receipts.partial')}</span>}
              </td>
              <td className="tr-nowrap">
                {(['json', 'pdf'] as const).map((kind) => (
                  <button
                    key={kind}
                    type="button"
                    className="btn btn-ghost btn-sm"
                    disabled={busy !== null}
                    aria-label={t(kind === 'json' ? 'receipts.downloadJson' : 'receipts.downloadPdf', {
                      date: formatDateTime(row.at, lng),
                    })}
                    onClick={() => void get(row, kind)}
                    data-testid={`receipt-${kind}`}
                  >
                    {busy === `${row.deliveryId}:${kind}` ? t('modal.working') : kind.toUpperCase()}
                  </button>
                ))}
                {failed === row.deliveryId && (
                  <span className="tr-notice-error" role="alert">
                    {' '}
                    {t('receipts.failed')}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {load.state === 'ready' && load.data.more && <p className="muted">{t('receipts.more')}</p>}
    </section>
  );
}
