import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { company } from '@/config/company';
import type { CheckoutProblem } from '../checkout-state';

/** A checkout that cannot go on: why, and the way on (billing, sign in again, try again). */
export function CheckoutFailed({ problem }: { readonly problem: CheckoutProblem }) {
  const { t } = useTranslation('billing');
  return (
    <section
      className="bl-checkout bl-checkout-failed"
      role="alert"
      data-testid="checkout-failed"
      data-problem={problem}
    >
      <p>{t(`checkout.problems.${problem}`)}</p>
      {problem === 'already_subscribed' && (
        <Link to={paths.accountBilling()} className="btn btn-primary btn-sm">
          {t('checkout.toBilling')}
        </Link>
      )}
      {problem === 'sign_in_again' && (
        <Link
          to={paths.login({ redirect: window.location.pathname + window.location.search })}
          className="btn btn-primary btn-sm"
        >
          {t('checkout.signIn')}
        </Link>
      )}
      {(problem === 'generic' || problem === 'expired' || problem === 'provider_unavailable') && (
        <button type="button" className="btn btn-primary btn-sm" onClick={() => window.location.reload()}>
          {t('checkout.tryAgain')}
        </button>
      )}
      <p className="muted">
        {t('checkout.help')} <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>
      </p>
    </section>
  );
}
