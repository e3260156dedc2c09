import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransferDetail } from '@domain/dashboard-api';
import { formatSize } from '@/lib/format-size';
import { countryName, formatDateTime, groupByFolder, recipientStatus } from '../transfer-format';
import { DataTable } from '@/components/table-head';

export function FilesSection({ detail }: { detail: TransferDetail }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const groups = groupByFolder(detail.files);
  return (
    <section className="tr-section" aria-labelledby={id}>
      <h3 id={id}>
        {t('modal.files')}{' '}
        <span className="muted tr-h-meta">{t('modal.filesCount', { count: detail.files.length })}</span>
      </h3>
      {groups.map((group) => (
        <div key={group.folder || '\u0000'} className="tr-folder">
          {group.folder && (
            <p className="tr-folder-name">
              <FolderIcon /> <span>{group.folder}</span> <span className="muted">· {formatSize(group.size, lng)}</span>
            </p>
          )}
          <ul className="tr-files" aria-label={group.folder || t('modal.files')} data-testid="transfer-files">
            {group.files.map((file) => (
              <li key={file.fileId}>
                <span className="tr-break">
                  {file.fileName}
                  {file.scan && (
                    <span className={`tr-scan tr-scan-${file.scan}`} data-testid="transfer-file-scan">
                      {file.scan === 'pending'
                        ? t('modal.scanPending')
                        : file.scan === 'removed'
                          ? t('modal.scanRemoved')
                          : t('modal.scanError')}
                      {file.finding && <span className="muted"> · {file.finding}</span>}
                    </span>
                  )}
                </span>
                <span className="muted tr-nowrap">{formatSize(file.size, lng)}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}

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

function FolderIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="16"
      height="16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
    </svg>
  );
}
