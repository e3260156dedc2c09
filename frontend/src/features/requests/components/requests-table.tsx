import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RequestSummary } from '@domain/requests-api';
import { dashPaths } from '@/app/dash-paths';
import { DataTable } from '@/components/table-head';
import { formatCount } from '@/lib/format';
import { formatDateTime } from '@/lib/format-date-time';
import { STATE_BADGE } from '../request-state';
import { RowCopy } from './request-row-copy';

/** The requester's requests: title (the way in), state, uploads, due date and a copy of the link. */
export function RequestsTable({ requests }: { requests: readonly RequestSummary[] }) {
  const { t, i18n } = useTranslation('requests');
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <DataTable
      wrapClassName="tr-table-wrap"
      className="tr-table"
      testId="requests-table"
      caption={<caption className="sr-only">{t('list.caption')}</caption>}
      columns={[
        t('list.columns.title'),
        t('list.columns.state'),
        t('list.columns.uploads'),
        t('list.columns.due'),
        t('list.columns.link'),
      ]}
    >
      {requests.map((r) => (
        <tr key={r.id} className="tr-row" data-request-id={r.id} data-testid="request-row">
          <td className="tr-break">
            <Link to={dashPaths.request(r.id)} className="rq-row-link" data-testid="request-row-open">
              {r.title}
            </Link>
          </td>
          <td>
            <span className={STATE_BADGE[r.state]} data-state={r.state} data-testid="request-row-state">
              {t(`state.${r.state}`)}
            </span>
          </td>
          <td className="tr-num" data-testid="request-row-uploads">
            {formatCount(r.uploadCount, lng)}
          </td>
          <td className="tr-nowrap">{r.dueDate === null ? t('list.noDue') : formatDateTime(r.dueDate, lng)}</td>
          <td className="tr-nowrap">
            <RowCopy link={r.link} title={r.title} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
