import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransferDetail } from '@domain/dashboard-api';
import { countryName, formatDateTime, recipientStatus } from '../transfer-format';
import { DataTable } from '@/components/table-head';

/** Who it was sent to, and whether and when each one downloaded it. */
export function RecipientsSection({ detail }: { detail: TransferDetail }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  return (
    <section className="tr-section" aria-labelledby={id}>
      <h3 id={id}>{t('modal.recipients')}</h3>
      {detail.recipientsDetail.length === 0 ? (
        <p className="muted">{t('modal.linkOnly')}</p>
      ) : (
        <DataTable
          wrapClassName="tr-table-wrap"
          className="tr-table tr-table-compact"
          testId="transfer-recipients"
          columns={[t('modal.recipientColumns.recipient'), t('modal.recipientColumns.status')]}
        >
          {detail.recipientsDetail.map((r) => {
            const status = recipientStatus(r);
            return (
              <tr key={r.email} data-testid="recipient-row">
                <th scope="row" className="tr-break">
                  {r.name ? `${r.name} <${r.email}>` : r.email}
                </th>
                <td>
                  {status.kind === 'downloaded' ? (
                    <span className="tr-status-done">
                      {status.lastAt === null
                        ? t('modal.downloadedCount', { count: status.times })
                        : t('modal.downloadedTimes', {
                            count: status.times,
                            when: formatDateTime(status.lastAt, lng),
                          })}
                    </span>
                  ) : (
                    <span className="tr-status-waiting">{t('modal.notDownloaded')}</span>
                  )}
                  {r.remindedAt !== undefined && (
                    <span className="muted tr-reminded">
                      {' '}
                      · {t('modal.reminded', { when: formatDateTime(r.remindedAt, lng) })}
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </section>
  );
}

/** Every download: country, date, who (or the public link) and which file or the ZIP. */
export function DownloadsSection({ detail }: { detail: TransferDetail }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  return (
    <section className="tr-section" aria-labelledby={id}>
      <h3 id={id}>
        {t('modal.downloadsTitle')}{' '}
        <span className="muted tr-h-meta">{t('modal.downloadsTotal', { count: detail.total_downloads })}</span>
      </h3>
      {detail.downloads.length === 0 ? (
        <p className="muted">{t('modal.noDownloads')}</p>
      ) : (
        <DataTable
          wrapClassName="tr-table-wrap"
          className="tr-table tr-table-compact"
          testId="transfer-downloads-table"
          columns={[
            t('modal.downloadColumns.country'),
            t('modal.downloadColumns.date'),
            t('modal.downloadColumns.recipient'),
            t('modal.downloadColumns.file'),
          ]}
        >
          {detail.downloads.map((d, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two downloads can share a date; the list only grows at its end
            <tr key={`${d.dlDate}-${index}`} data-testid="download-row">
              <td data-testid="download-country">{countryName(d.countryCode, lng) ?? t('modal.unknownCountry')}</td>
              <td className="tr-nowrap">{formatDateTime(d.dlDate, lng)}</td>
              <td className="tr-break">{d.receiverEmail ?? <span className="muted">{t('modal.publicLink')}</span>}</td>
              <td className="tr-break">{d.dlOrigin === 'zip' ? t('modal.zip') : d.fileName}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
