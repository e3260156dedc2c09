import { useTranslation } from 'react-i18next';
import type { DnsRecordView } from '@domain/custom-domains';
import { TableHead } from '@/components/table-head';
import { CopyButton } from '@/components/copy-button';

/** DNS records to create, each name and value with Copy. */
export function RecordsTable({
  records,
  caption,
  testId,
}: {
  records: readonly DnsRecordView[];
  caption: string;
  testId: string;
}) {
  const { t } = useTranslation('domains');
  const copyText = t('domains.records.copy', { what: '' }).trim();
  return (
    <div className="domains-records-wrap">
      <table className="domains-records" data-testid={testId}>
        <caption>{caption}</caption>
        <TableHead columns={[t('domains.records.type'), t('domains.records.name'), t('domains.records.value')]} />
        <tbody>
          {records.map((r) => (
            <tr key={`${r.type} ${r.name}`} data-record-type={r.type}>
              <td>{r.type}</td>
              <td>
                <code data-testid="record-name">{r.name}</code>{' '}
                <CopyButton
                  value={r.name}
                  text={copyText}
                  copiedText={t('domains.records.copied')}
                  ariaLabel={t('domains.records.copy', { what: t('domains.records.name') })}
                />
              </td>
              <td>
                <code data-testid="record-value">{r.value}</code>{' '}
                <CopyButton
                  value={r.value}
                  text={copyText}
                  copiedText={t('domains.records.copied')}
                  ariaLabel={t('domains.records.copy', { what: t('domains.records.value') })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
