import { useTranslation } from 'react-i18next';
import { PageLoading } from '@/components/page-loading';
import { company } from '@/config/company';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { requestRefund, setCancel } from '../billing-api';
import { brandName, formatDay, hasManagedSubscription, renewalLine } from '../billing-format';
import { useBillingActions } from '../use-billing-actions';
import { useStripeData } from '../use-stripe-data';
import { CancelSection } from './cancel-section';
import { CardSection } from './card-section';
import { ConfirmDialog } from './confirm-dialog';
import { InvoicesSection } from './invoices-section';
import { SubscriptionSection } from './subscription-section';
import '../billing.css';

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
  const stripe = useStripeData();
  const { action, dialog, setDialog, ask, notice, setNotice, round, act, resume } = useBillingActions(stripe);
  const now = Date.now();

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
  const renewal = renewalLine(view);

  return (
    <div className="container dash-page bl-billing" data-testid="billing-page">
      <h1>{t('page.title')}</h1>
      <p className="bl-notice" role="status" data-testid="billing-notice">
        {notice ?? ''}
      </p>

      <div className="bl-grid">
        <SubscriptionSection view={view} now={now} />

        <CardSection
          view={view}
          onReplaced={(card) => {
            setNotice(t('card.replaced', { brand: brandName(card.brand), last4: card.last4 }));
            stripe.reload();
          }}
        />

        {managed && <CancelSection view={view} now={now} busy={action.busy} onResume={resume} onAsk={ask} />}
      </div>

      <InvoicesSection round={round} />

      <p className="muted">
        {t('page.help')} <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>
      </p>

      {dialog === 'cancel' && (
        <ConfirmDialog
          title={t('page.cancelConfirmTitle')}
          confirmLabel={t('page.cancelConfirm')}
          busy={action.busy}
          error={action.error}
          testId="billing-cancel-dialog"
          onConfirm={() => act(() => setCancel(true), t('page.cancelledNotice'))}
          onClose={() => setDialog(null)}
        >
          <p>
            {renewal
              ? t('page.cancelConfirmBody', { date: formatDay(renewal.at, lng) })
              : t('page.cancelConfirmBodyNoDate')}
          </p>
        </ConfirmDialog>
      )}
      {dialog === 'refund' && (
        <ConfirmDialog
          title={t('page.refundConfirmTitle')}
          confirmLabel={t('page.refundConfirm')}
          busy={action.busy}
          error={action.error}
          testId="billing-refund-dialog"
          onConfirm={() => act(requestRefund, t('page.refunded'))}
          onClose={() => setDialog(null)}
        >
          <p>{t('page.refundConfirmBody')}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
