import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { InvoiceView, StripeDataResponse } from '@domain/billing-api';
import { DEFAULT_ROLE } from '@domain/plans';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { TableHead } from '@/components/table-head';
import { company } from '@/config/company';
import { usePlanName } from '@/lib/use-plan-name';
import { errorTextOf } from '@/i18n/error-keys';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchInvoices, requestRefund, setCancel } from '../billing-api';
import { billingErrorKey } from '../billing-errors';
import { brandName, canRefund, formatCardExpiry, formatDay, formatMoney, hasManagedSubscription, invoiceLinks, periodKey, renewalLine } from '../billing-format';
import { useStripeData } from '../use-stripe-data';
import { ConfirmDialog } from './confirm-dialog';
import { ReplaceCard } from './replace-card';
import { SubscriptionBadge } from './subscription-badge';
import '../billing.css';

type Dialog = 'cancel' | 'refund' | null;

/**
 * /dash/account/billing (spec §2 accountBilling; hidden from team members): the subscription
 * (status, plan, amount and period, trial days and end, renewal), change plan and period, the
 * card and its replacement, cancel at the period end and resume, the 30-day refund, invoices.
 */
export function BillingPage() {
  const { t } = useTranslation('billing');
  const { user } = useSession();
  usePageTitle(t('page.title'));
  if (!user) return <PageLoading />;
  if (user.isTeamMember) {
    return (
      <div className="container dash-page">
        <h1>{t('page.title')}</h1>
        <section className="card bl-managed" data-testid="billing-team-managed">
          <h2>{t('team.title')}</h2>
          <p>{t('team.managed')}</p>
        </section>
      </div>
    );
  }
  return <BillingOverview />;
}

function BillingOverview() {
  const { t, i18n } = useTranslation('billing');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const planName = usePlanName();
  const session = useSession();
  const stripe = useStripeData();
  const [invoices, setInvoices] = useState<readonly InvoiceView[] | null>(null);
  const [invoicesFailed, setInvoicesFailed] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [replacing, setReplacing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [round, setRound] = useState(0);
  const now = Date.now();
  const failureText = (err: unknown) => {
    const own = billingErrorKey(err);
    return own ? t(own) : (tApp as (key: string) => string)(errorTextOf(err).key);
  };

  useEffect(() => {
    let live = true;
    fetchInvoices()
      .then((answer) => live && setInvoices(answer.invoices))
      .catch(() => live && setInvoicesFailed(true));
    return () => {
      live = false;
    };
  }, [round]);

  if (stripe.failed) {
    return (
      <div className="container dash-page">
        <h1>{t('page.title')}</h1>
        <p className="bl-alert" role="alert">
          {tApp('errors.generic')}
        </p>
      </div>
    );
  }
  if (!stripe.data) return <PageLoading />;
  const view = stripe.data.view;
  const managed = hasManagedSubscription(view);
  const held = !managed && view.role !== DEFAULT_ROLE;
  const renewal = renewalLine(view);
  const refundable = managed && canRefund(view, now);
  const otherPeriod = view.period === 'year' ? 'month' : 'year';

  const act = async (run: () => Promise<StripeDataResponse>, done: string) => {
    setBusy(true);
    setDialogError(null);
    try {
      const data = await run();
      stripe.set(data);
      setDialog(null);
      setNotice(done);
      setRound((n) => n + 1);
      void session.reloadUser().catch(() => undefined);
    } catch (err) {
      setDialogError(failureText(err));
    } finally {
      setBusy(false);
    }
  };

  const resume = async () => {
    setBusy(true);
    setNotice(null);
    try {
      const data = await setCancel(false);
      stripe.set(data);
      setNotice(t('page.resumed'));
      void session.reloadUser().catch(() => undefined);
    } catch (err) {
      setNotice(failureText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="container dash-page bl-billing" data-testid="billing-page">
      <h1>{t('page.title')}</h1>
      <p className="bl-notice" role="status" data-testid="billing-notice">
        {notice ?? ''}
      </p>

      <div className="bl-grid">
        <section className="card bl-subscription" aria-labelledby="bl-sub-title" data-testid="billing-subscription">
          <h2 id="bl-sub-title">{t('page.subscription')}</h2>
          {managed ? (
            <>
              <p className="bl-plan-line">
                <strong data-testid="billing-plan">{view.nickname ?? planName(view.role)}</strong> <SubscriptionBadge view={view} now={now} />
              </p>
              <dl className="bl-facts">
                {view.amount !== null && view.currency !== null && view.period !== null && (
                  <div>
                    <dt>{t('page.amount')}</dt>
                    <dd data-testid="billing-amount">{t(`checkout.${periodKey(view.period)}`, { amount: formatMoney(view.amount, view.currency, lng) })}</dd>
                  </div>
                )}
                {view.period !== null && (
                  <div>
                    <dt>{t('page.period')}</dt>
                    <dd data-testid="billing-period">{t(`page.periods.${view.period}`)}</dd>
                  </div>
                )}
                {view.status === 'trialing' && view.trialEnd !== null && (
                  <div>
                    <dt>{t('page.trialEnd')}</dt>
                    <dd data-testid="billing-trial-end">{formatDay(view.trialEnd, lng)}</dd>
                  </div>
                )}
                {renewal && (
                  <div>
                    <dt>{t(`page.renewal.${renewal.kind}`)}</dt>
                    <dd data-testid="billing-renewal" data-kind={renewal.kind}>
                      {formatDay(renewal.at, lng)}
                    </dd>
                  </div>
                )}
                {view.discount && (
                  <div>
                    <dt>{t('page.discount')}</dt>
                    <dd>
                      {view.discount.percentOff !== null
                        ? t('page.percentOff', { percent: view.discount.percentOff })
                        : view.discount.amountOff !== null && view.currency !== null
                          ? formatMoney(view.discount.amountOff, view.currency, lng)
                          : (view.discount.code ?? '')}
                    </dd>
                  </div>
                )}
              </dl>
              {view.pendingChange && (
                <p className="muted" data-testid="billing-pending">
                  {t('page.pending', { plan: planName(view.pendingChange.role), period: t(`page.periods.${view.pendingChange.period}`), date: formatDay(view.pendingChange.at, lng) })}
                </p>
              )}
              {(view.status === 'past_due' || view.status === 'unpaid') && (
                <p className="bl-alert" role="alert">
                  {t('page.paymentTrouble')}
                </p>
              )}
              <p className="bl-actions">
                <Link to={paths.account({ tab: 1 })} className="btn btn-primary btn-sm" data-testid="billing-change-plan">
                  {t('page.changePlan')}
                </Link>
                {view.period !== null && (
                  <Link to={paths.account({ tab: 1, plan: view.role, period: otherPeriod })} className="btn btn-ghost btn-sm" data-testid="billing-switch-period">
                    {otherPeriod === 'year' ? t('page.switchYearly') : t('page.switchMonthly')}
                  </Link>
                )}
              </p>
            </>
          ) : held ? (
            <>
              {/* A plan held without a subscription (a lifetime deal, a granted plan): nothing renews, nothing to cancel. */}
              <p className="bl-plan-line" data-testid="billing-held">
                <strong data-testid="billing-plan">{planName(view.role)}</strong>
              </p>
              <p>{t('page.held', { plan: planName(view.role) })}</p>
              <Link to={paths.account({ tab: 1 })} className="btn btn-ghost btn-sm" data-testid="billing-choose-plan">
                {t('page.changePlan')}
              </Link>
            </>
          ) : (
            <>
              <p data-testid="billing-none">{view.status === 'canceled' ? t('page.ended') : t('page.none')}</p>
              <Link to={paths.account({ tab: 1 })} className="btn btn-primary btn-sm" data-testid="billing-choose-plan">
                {t('page.choosePlan')}
              </Link>
            </>
          )}
          {view.sumoCodes > 0 && <p className="muted">{t('page.sumo', { count: view.sumoCodes })}</p>}
        </section>

        <section className="card bl-payment" aria-labelledby="bl-card-title" data-testid="billing-card">
          <h2 id="bl-card-title">{t('page.card')}</h2>
          {view.card ? (
            <p data-testid="billing-card-summary">
              {t('page.cardSummary', { brand: brandName(view.card.brand), last4: view.card.last4, expiry: formatCardExpiry(view.card) })}
            </p>
          ) : (
            <p className="muted">{t('page.noCard')}</p>
          )}
          {managed &&
            (replacing ? (
              <ReplaceCard
                onReplaced={(card) => {
                  setReplacing(false);
                  setNotice(t('card.replaced', { brand: brandName(card.brand), last4: card.last4 }));
                  stripe.reload();
                }}
                onCancel={() => setReplacing(false)}
              />
            ) : (
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setReplacing(true)} data-testid="billing-replace-card">
                {t('card.replace')}
              </button>
            ))}
        </section>

        {managed && (
          <section className="card bl-cancel" aria-labelledby="bl-cancel-title">
            <h2 id="bl-cancel-title">{view.cancelAtPeriodEnd ? t('page.cancelledTitle') : t('page.cancelTitle')}</h2>
            {view.cancelAtPeriodEnd ? (
              <>
                <p>{renewal ? t('page.cancelledBody', { date: formatDay(renewal.at, lng) }) : t('page.cancelledBodyNoDate')}</p>
                <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={() => void resume()} data-testid="billing-resume">
                  {t('page.resume')}
                </button>
              </>
            ) : (
              <>
                <p>{t('page.cancelBody')}</p>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => {
                    setDialogError(null);
                    setDialog('cancel');
                  }}
                  data-testid="billing-cancel"
                >
                  {t('page.cancel')}
                </button>
              </>
            )}
            {refundable && view.refundableUntil !== null && (
              <div className="bl-refund">
                <p>{t('page.refundBody', { date: formatDay(view.refundableUntil, lng) })}</p>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => {
                    setDialogError(null);
                    setDialog('refund');
                  }}
                  data-testid="billing-refund"
                >
                  {t('page.refund')}
                </button>
              </div>
            )}
          </section>
        )}
      </div>

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
          <div className="table-wrap">
            <table className="data-table">
              <TableHead columns={[t('invoices.date'), t('invoices.number'), t('invoices.amount'), t('invoices.status'), t('invoices.links')]} />
              <tbody>
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
              </tbody>
            </table>
          </div>
        )}
      </section>

      <p className="muted">
        {t('page.help')} <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>
      </p>

      {dialog === 'cancel' && (
        <ConfirmDialog
          title={t('page.cancelConfirmTitle')}
          confirmLabel={t('page.cancelConfirm')}
          busy={busy}
          error={dialogError}
          testId="billing-cancel-dialog"
          onConfirm={() => void act(() => setCancel(true), t('page.cancelledNotice'))}
          onClose={() => setDialog(null)}
        >
          <p>{renewal ? t('page.cancelConfirmBody', { date: formatDay(renewal.at, lng) }) : t('page.cancelConfirmBodyNoDate')}</p>
        </ConfirmDialog>
      )}
      {dialog === 'refund' && (
        <ConfirmDialog
          title={t('page.refundConfirmTitle')}
          confirmLabel={t('page.refundConfirm')}
          busy={busy}
          error={dialogError}
          testId="billing-refund-dialog"
          onConfirm={() => void act(requestRefund, t('page.refunded'))}
          onClose={() => setDialog(null)}
        >
          <p>{t('page.refundConfirmBody')}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
