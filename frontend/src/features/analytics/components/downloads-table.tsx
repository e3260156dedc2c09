import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A table of download counts: what each row counts (its header cell), then the count. */
export function DownloadsTable({
  firstColumn,
  testId,
  children,
}: {
  firstColumn: string;
  testId?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('insights');
  return (
    <table className="analytics-table" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{firstColumn}</th>
          <th scope="col" className="num">
            {t('analytics.table.downloads')}
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
