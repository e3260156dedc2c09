import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SUMO_MAX_CODES, type RedeemResponse } from '@domain/billing-api';
import { sumoRoleOf } from '@domain/billing';
import { paths } from '@/app/paths';
import { usePlanName } from '@/lib/use-plan-name';
import { errorTextOf } from '@/i18n/error-keys';
import { useSession } from '@/lib/session/session-provider';
import { useAction } from '@/lib/use-action';
import { redeemCode } from '../billing-api';
import { redeemProblem } from '../sumo-errors';
import { useStripeData } from '../use-stripe-data';
import '../billing.css';

/**
 * The lifetime-code form of /appsumoforever: signed in, a code goes to POST /appsumo/redeem and
 * the page shows the codes redeemed (n of 8) and the tier they give; signed out, 'Log in to
 * redeem' comes back here after the login.
 */
export function SumoRedeem() {
  const { t } = useTranslation('billing');
  const { t: tApp } = useTranslation();
  const planName = usePlanName();
  const id = useId();
  const { status, user, reloadUser } = useSession();
  const signedIn = status === 'authenticated' && user !== null;
  const current = useStripeData(signedIn);
  const [code, setCode] = useState('');
  const [result, setResult] = useState<RedeemResponse | null>(null);
  const action = useAction({
    errorText: (err) => {
      const problem = redeemProblem(err);
      return problem ? t(`redeem.errors.${problem}`) : (tApp as (key: string) => string)(errorTextOf(err).key);
    },
  });
  const { busy, error: failure } = action;

  if (!signedIn) {
    return (
      <section className="card section-tight bl-redeem" aria-labelledby={`${id}-title`} data-testid="sumo-redeem">
        <h2 id={`${id}-title`}>{t('redeem.title')}</h2>
        <p>{t('redeem.signedOut')}</p>
        <Link to={paths.login({ redirect: paths.sumo() })} className="btn btn-primary" data-testid="sumo-login">
          {t('redeem.logIn')}
        </Link>
      </section>
    );
  }

  const redeemed = result?.codesRedeemed ?? current.data?.view.sumoCodes ?? null;
  const full = redeemed !== null && redeemed >= SUMO_MAX_CODES;
  // each code stacks to the next tier: n codes give the n-th (the server's rule, @domain/billing)
  const tier = result?.sumoRole ?? (redeemed !== null && redeemed > 0 ? sumoRoleOf(redeemed) : null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (busy) return;
    if (value === '') {
      action.setError(t('redeem.errors.empty'));
      return;
    }
    const done = await action.run(async () => {
      setResult(await redeemCode(value.slice(0, 64)));
      setCode('');
    });
    if (done) void reloadUser().catch(() => undefined);
  };

  return (
    <section className="card section-tight bl-redeem" aria-labelledby={`${id}-title`} data-testid="sumo-redeem">
      <h2 id={`${id}-title`}>{t('redeem.title')}</h2>
      {redeemed !== null && (
        <p data-testid="sumo-count">
          {t('redeem.count', { count: redeemed, max: SUMO_MAX_CODES })}
          {tier && <> {t('redeem.tier', { plan: planName(tier) })}</>}
        </p>
      )}
      {result && (
        <p className="bl-success" role="status" data-testid="sumo-success">
          {t('redeem.redeemed', { plan: planName(result.role) })}
        </p>
      )}
      {full ? (
        <p className="muted">{t('redeem.errors.sumo_codes_full')}</p>
      ) : (
        <form className="bl-redeem-form" onSubmit={submit} noValidate>
          <div className="bl-field">
            <label htmlFor={`${id}-code`}>{t('redeem.code')}</label>
            <input
              id={`${id}-code`}
              className="account-input"
              type="text"
              autoComplete="off"
              spellCheck={false}
              maxLength={64}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              aria-invalid={failure ? 'true' : undefined}
              aria-describedby={failure ? `${id}-problem` : undefined}
              data-testid="sumo-code"
            />
          </div>
          <p id={`${id}-problem`} className="bl-alert" role="alert" data-testid="sumo-error">
            {failure ?? ''}
          </p>
          <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy} data-testid="sumo-submit">
            {t('redeem.submit')}
          </button>
        </form>
      )}
    </section>
  );
}
