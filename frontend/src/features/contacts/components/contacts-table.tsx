import { useTranslation } from 'react-i18next';
import type { ContactRow } from '@domain/contacts-api';
import { DataTable } from '@/components/table-head';
import { formatCount } from '@/lib/format';

export interface ContactsTableProps {
  readonly rows: readonly ContactRow[];
  readonly total: number;
  readonly max: number;
  /** the search the rows answer, '' for all */
  readonly q: string;
  /** how many rows are drawn */
  readonly shown: number;
  onShowMore(): void;
  onEdit(contact: ContactRow): void;
  onRemove(contact: ContactRow): void;
}

/** The contacts found, a page at a time (Show more), each with Edit and Remove. */
export function ContactsTable({ rows, total, max, q, shown, onShowMore, onEdit, onRemove }: ContactsTableProps) {
  const { t, i18n } = useTranslation('contacts');
  const lng = i18n.resolvedLanguage ?? 'en';
  const visible = rows.slice(0, shown);
  return (
    <>
      <DataTable
        wrapClassName="ct-table-wrap"
        className="ct-table"
        testId="contacts-table"
        caption={<caption className="sr-only">{t('table.caption')}</caption>}
        columns={[
          t('table.email'),
          t('table.name'),
          t('table.company'),
          t('table.lastSent'),
          <span key="actions" className="sr-only">
            {t('table.actions')}
          </span>,
        ]}
      >
        {visible.map((c) => (
          <tr key={c.email.toLowerCase()} data-contact-row={c.email.toLowerCase()} data-testid="contact-row">
            <td className="ct-email">{c.email}</td>
            <td>{c.name ?? ''}</td>
            <td>{c.company ?? ''}</td>
            <td className="ct-muted">
              {c.lastUsedAt
                ? new Intl.DateTimeFormat(lng, { dateStyle: 'medium' }).format(c.lastUsedAt)
                : t('table.never')}
            </td>
            <td className="ct-actions">
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-label={t('table.editLabel', { email: c.email })}
                onClick={() => onEdit(c)}
                data-testid="contact-edit"
              >
                {t('table.edit')}
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm ct-danger"
                aria-label={t('table.removeLabel', { email: c.email })}
                onClick={() => onRemove(c)}
                data-testid="contact-remove"
              >
                {t('table.remove')}
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
      <div className="ct-more">
        <p className="muted" data-testid="contacts-count">
          {q
            ? t('showingMatches', {
                shown: formatCount(visible.length, lng),
                matches: formatCount(rows.length, lng),
                total: formatCount(total, lng),
              })
            : t('showing', {
                shown: formatCount(visible.length, lng),
                total: formatCount(total, lng),
                max: formatCount(max, lng),
              })}
        </p>
        {rows.length > shown && (
          <button type="button" className="btn btn-ghost btn-sm" onClick={onShowMore}>
            {t('showMore')}
          </button>
        )}
      </div>
    </>
  );
}
