import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { InvoiceView } from '@domain/billing-api';
import { PageLoading } from '@/components/page-loading';
import { DataTable } from '@/components/table-head';
import { fetchInvoices } from '../billing-api';
import { formatDay, formatMoney, invoiceLinks } from '../billing-format';

/** The invoices, loaded again whenever `round` changes (after a cancellation or a refund). */
export function InvoicesSection({ round }: { round: number }) {
  const { t, i18n } = useTranslation('billing');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const [invoices, setInvoices] = useState<readonly InvoiceView[] | null>(null);
  const [invoicesFailed, setInvoicesFailed] = useState(false);

  useEffect(() => {
    let live = true;
    fetchInvoices()
      .then((answer) => live && setInvoices(answer.invoices))
      .catch(() => live && setInvoicesFailed(true));
    return () => {
      live = false;
    };
  }, [round]);

  return (
    <section className="card bl-invoices" aria-labelledby="bl-invoices-title" data-testid="billing-invoices">
      <h2 id="bl-invoices-title">{t('invoices.title')}</h2>
      {invoicesFailed ? (
        <p className="bl-alert" role="alert">
          {tApp('errors.generic')}
        </p>
      ) : !invoices ? (
        <PageLoading />
      ) : invoices.length === 0 ? (
        <p className="muted">{t('invoices.none')}</p>
      ) : (
        <DataTable
          wrapClassName="table-wrap"
          className="data-table"
          columns={[
            t('invoices.date'),
            t('invoices.number'),
            t('invoices.amount'),
            t('invoices.status'),
            t('invoices.links'),
          ]}
        >
          {invoices.map((invoice) => {
            const links = invoiceLinks(invoice, window.location.origin);
            return (
              <tr key={invoice.id} data-testid="invoice-row">
                <td>{formatDay(invoice.created, lng)}</td>
                <td>{invoice.number ?? '—'}</td>
                <td>{formatMoney(invoice.total, invoice.currency, lng)}</td>
                <td>{invoice.refunded ? t('invoices.refunded') : t(`invoices.statuses.${invoice.status}`)}</td>
                <td className="bl-invoice-links">
                  {links.hosted &&
                    (links.hosted.inApp ? (
                      <Link to={links.hosted.href} data-testid="invoice-view">
                        {t('invoices.view')}
                      </Link>
                    ) : (
                      <a href={links.hosted.href} target="_blank" rel="noopener noreferrer">
                        {t('invoices.view')}
                      </a>
                    ))}
                  {links.pdf && (
                    <a href={links.pdf} target="_blank" rel="noopener noreferrer">
                      {t('invoices.pdf')}
                    </a>
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
