import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { InvoiceView } from '@domain/billing-api';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { company } from '@/config/company';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchInvoices } from '../billing-api';
import { formatDay, formatMoney } from '../billing-format';
import '../billing.css';

/**
 * The simulator's hosted invoice page (Stripe hosts its own): one of the caller's invoices,
 * read from GET /billing/invoices, laid out to print.
 */
export function InvoicePage() {
  const { t, i18n } = useTranslation('billing');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const { id } = useParams();
  const { user } = useSession();
  const [invoice, setInvoice] = useState<InvoiceView | null | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  usePageTitle(invoice?.number ? t('invoice.titleNumber', { number: invoice.number }) : t('invoice.title'));

  useEffect(() => {
    let live = true;
    fetchInvoices()
      .then((answer) => live && setInvoice(answer.invoices.find((i) => i.id === id) ?? null))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [id]);

  const back = (
    <Link to={paths.accountBilling()} className="text-link bl-no-print">
      {t('invoice.back')}
    </Link>
  );

  if (failed) {
    return (
      <div className="container dash-page">
        <p className="bl-alert" role="alert">
          {tApp('errors.generic')}
        </p>
        {back}
      </div>
    );
  }
  if (invoice === undefined || !user) return <PageLoading />;
  if (invoice === null) {
    return (
      <div className="container dash-page" data-testid="invoice-missing">
        <h1>{t('invoice.title')}</h1>
        <p>{t('invoice.missing')}</p>
        {back}
      </div>
    );
  }

  const status = invoice.refunded ? t('invoices.refunded') : t(`invoices.statuses.${invoice.status}`);
  return (
    <div className="container dash-page bl-invoice" data-testid="invoice-page">
      <p className="bl-no-print bl-actions">
        {back}
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => window.print()}
          data-testid="invoice-print"
        >
          {t('invoice.print')}
        </button>
      </p>
      <article className="card bl-invoice-sheet">
        <header className="bl-invoice-head">
          <div>
            <h1>{invoice.number ? t('invoice.titleNumber', { number: invoice.number }) : t('invoice.title')}</h1>
            <p className="muted">{formatDay(invoice.created, lng)}</p>
          </div>
          <address>
            <strong>{company.legalName}</strong>
            {company.addressLines.map((line) => (
              <span key={line}>{line}</span>
            ))}
            <span>{company.supportEmail}</span>
          </address>
        </header>
        <section className="bl-invoice-to" aria-labelledby="bl-invoice-to">
          <h2 id="bl-invoice-to">{t('invoice.billedTo')}</h2>
          <p>
            {user.fullName && <span>{user.fullName}</span>}
            {user.company && <span>{user.company}</span>}
            <span>{user.email}</span>
          </p>
        </section>
        <dl className="bl-facts">
          <div>
            <dt>{t('invoice.total')}</dt>
            <dd data-testid="invoice-total">{formatMoney(invoice.total, invoice.currency, lng)}</dd>
          </div>
          <div>
            <dt>{t('invoice.paid')}</dt>
            <dd>{formatMoney(invoice.amountPaid, invoice.currency, lng)}</dd>
          </div>
          <div>
            <dt>{t('invoices.status')}</dt>
            <dd data-testid="invoice-status">{status}</dd>
          </div>
        </dl>
        <p className="muted bl-small">{t('invoice.simulated')}</p>
      </article>
    </div>
  );
}
