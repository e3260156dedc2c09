import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { PageLoading } from '@/components/page-loading';
// step 3's checkout for a paid plan (its `billing` catalogue comes with this route)
import { Checkout } from '@/features/billing/components/checkout';
import { parsePeriod } from '@/features/billing/price-choice';
import { guardStep, parsePlan, parseStep, type RegisterStep } from '@/features/auth/register-steps';
import { CodeStep } from '@/features/auth/components/register-code-step';
import { DetailsStep } from '@/features/auth/components/register-details-step';
import { EmailStep } from '@/features/auth/components/register-email-step';
import { RegisterFootnotes, RegisterTestimonial } from './register-parts';
import { useRegistration } from './use-registration';
import '@/features/auth/auth.css';

/**
 * Register (spec §2, §4): welcome, the chosen plan with a way back to Pricing, then
 * step 1 work email, step 2 the mailed code, step 3 the account details. The step lives in the
 * query and is guarded by what the visitor has proven (register-steps.ts).
 */
export function RegisterPage() {
  const { t } = useTranslation();
  const { t: tBilling } = useTranslation('billing');
  const session = useSession();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const { registration, setRegistration, forgetStored } = useRegistration();
  const requested = parseStep(searchParams.get('step'));
  const plan = parsePlan(searchParams.get('plan'));
  const paid = plan !== 'free';
  // the paid plan's period and a coupon travel with the steps to the checkout
  const period = paid ? parsePeriod(searchParams.get('period')) : undefined;
  const coupon = searchParams.get('coupon')?.slice(0, 255) || undefined;
  const step = guardStep(requested, registration);
  // Step 3 of a paid plan (spec §2/§4: payment): once the account exists (signed in as the
  // registered address), the checkout takes the step's place.
  const paying =
    step === 3 &&
    paid &&
    session.status === 'authenticated' &&
    session.user !== null &&
    session.user.email === registration?.email;
  usePageTitle(t('auth.register.title'));

  const goTo = useCallback(
    (next: RegisterStep, replace = false) =>
      navigate(paths.register({ step: next, plan, period, coupon }), { replace }),
    [navigate, plan, period, coupon],
  );

  const startOver = useCallback(() => {
    setRegistration(null);
    goTo(1);
  }, [goTo, setRegistration]);

  if (step !== requested || searchParams.get('step') !== String(step)) {
    return <Navigate replace to={paths.register({ step, plan, period, coupon })} />;
  }

  return (
    <div className="container auth-page auth-split">
      <section className="auth-card auth-card-wide" aria-labelledby="register-welcome">
        <p className="auth-step-count">{t('auth.register.step', { step })}</p>
        <h1 id="register-welcome" className="auth-title">
          {t('auth.register.welcome')}
        </h1>
        <p className="auth-plan" data-testid="register-plan">
          <span>{t('auth.register.plan')}:</span> <strong>{t(`plans.${plan}`)}</strong>
          {period && <span data-testid="register-period"> ({tBilling(`page.periods.${period}`)})</span>}{' '}
          <Link to={paths.pricing({ plan, save: period === 'year' })} data-testid="register-change-plan">
            {t('auth.register.changePlan')}
          </Link>
        </p>

        {step === 1 && (
          <EmailStep
            initialEmail={registration?.email ?? ''}
            knownProof={registration?.registrationToken}
            onCodeSent={(email) => {
              setRegistration({ email });
              goTo(2);
            }}
            onAlreadyVerified={(email, registrationToken) => {
              setRegistration({ email, registrationToken });
              goTo(3);
            }}
          />
        )}
        {step === 2 && registration && (
          <CodeStep
            email={registration.email}
            onVerified={(registrationToken) => {
              setRegistration({ email: registration.email, registrationToken });
              goTo(3);
            }}
            onOtherEmail={startOver}
          />
        )}
        {paying && period && (
          <div data-testid="register-payment">
            <h2 className="auth-subtitle">{tBilling('register.heading')}</h2>
            <p className="auth-lead">{tBilling('register.lead')}</p>
            <Checkout role={plan} period={period} coupon={coupon ?? null} />
          </div>
        )}
        {/* a reload on the payment step: the session renews before we know which part to show */}
        {step === 3 && paid && session.status === 'unknown' && <PageLoading />}
        {step === 3 && !paying && !(paid && session.status === 'unknown') && registration?.registrationToken && (
          <DetailsStep
            email={registration.email}
            registrationToken={registration.registrationToken}
            plan={plan}
            onSignedUp={() => {
              // A paid plan stays on step 3 for its checkout (the session now names the account);
              // the thank-you page forgets the registration once paid.
              if (paid) return;
              // Storage only: clearing the state too would let the step guard send this page
              // back to step 1 while the dashboard is still loading.
              forgetStored();
              navigate(paths.dash(), { replace: true });
            }}
            onStartOver={startOver}
          />
        )}

        <RegisterFootnotes email={registration?.email} />
      </section>

      <RegisterTestimonial />
    </div>
  );
}
