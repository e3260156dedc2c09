import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '@/app/paths';
import { useSession } from '@/lib/session/session-provider';
import { useAction } from '@/lib/use-action';
import { usePageTitle } from '@/lib/use-page-title';
import { ApiError } from '@/lib/api';
import { acceptInvite } from '../api/teams-api';
import { useTeamErrorText } from '../team-errors';
import { useInvite } from '../use-invite';
import '../teams.css';

/**
 * /invite/{id} (spec §2, §7 PATCH /v1/teams): the invitee sees who invited which
 * address, sets name and password, and lands on /accept-invite signed in. The address is the
 * invited one and cannot be changed (the server binds the link to it).
 */
export function InvitePage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('teams');
  const errorText = useTeamErrorText();
  const { completeSignup } = useSession();
  const navigate = useNavigate();
  const ids = useId();
  const [state, setState] = useInvite(id);
  const [fullName, setFullName] = useState('');
  const [password, setPassword] = useState('');
  const [company, setCompany] = useState('');
  const action = useAction({ errorText });
  const info = state.kind === 'ready' ? state.info : null;
  usePageTitle(info ? t('invitePage.title', { admin: info.adminName }) : t('invitePage.missingTitle'));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!info) return;
    void action.run(
      async () => {
        const auth = await acceptInvite({
          token: id,
          newMemberEmail: info.email,
          fullName: fullName.trim(),
          password,
          ...(company.trim() ? { company: company.trim() } : {}),
          lang: i18n.resolvedLanguage ?? 'en',
        });
        completeSignup(auth);
        void navigate(paths.acceptInvite(), { replace: true });
      },
      {
        onError: (err) => {
          if (err instanceof ApiError && (err.code === 'invite_expired' || err.code === 'invite_not_found'))
            setState({ kind: 'missing' });
        },
      },
    );
  };

  if (state.kind === 'loading') return <section className="container narrow tm-invite-page" aria-busy="true" />;
  if (state.kind === 'missing' || state.info.state === 'expired') {
    const expired = state.kind === 'ready';
    return (
      <section className="container narrow tm-invite-page" data-testid="invite-unusable">
        <h1>{expired ? t('invitePage.expiredTitle') : t('invitePage.missingTitle')}</h1>
        <p>{expired ? t('invitePage.expiredBody', { admin: state.info.adminName }) : t('invitePage.missingBody')}</p>
        {action.error && <p role="alert">{action.error}</p>}
        <Link to={paths.login()}>{t('invitePage.login')}</Link>
      </section>
    );
  }

  const { info: invite } = state;
  return (
    <section className="container narrow tm-invite-page">
      <h1>{t('invitePage.title', { admin: invite.adminName })}</h1>
      <p className="lead">
        {invite.company
          ? t('invitePage.leadCompany', { admin: invite.adminName, company: invite.company })
          : t('invitePage.lead', { admin: invite.adminName })}
      </p>
      <form onSubmit={submit} data-testid="invite-form">
        <label htmlFor={`${ids}-email`}>
          {t('invitePage.email')}
          <input
            className="field-input"
            id={`${ids}-email`}
            type="email"
            value={invite.email}
            readOnly
            autoComplete="username"
          />
        </label>
        <label htmlFor={`${ids}-name`}>
          {t('invitePage.fullName')}
          <input
            className="field-input"
            id={`${ids}-name`}
            type="text"
            value={fullName}
            onChange={(e) => setFullName(e.target.value)}
            maxLength={200}
            required
            autoComplete="name"
          />
        </label>
        <label htmlFor={`${ids}-password`}>
          {t('invitePage.password')}
          <input
            className="field-input"
            id={`${ids}-password`}
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            minLength={6}
            maxLength={256}
            required
            autoComplete="new-password"
          />
        </label>
        <label htmlFor={`${ids}-company`}>
          {t('invitePage.company')}
          <input
            className="field-input"
            id={`${ids}-company`}
            type="text"
            value={company}
            onChange={(e) => setCompany(e.target.value)}
            maxLength={200}
            autoComplete="organization"
          />
        </label>
        {action.error && (
          <p role="alert" className="tm-notice tm-notice-error">
            {action.error}
          </p>
        )}
        <button
          type="submit"
          className="btn btn-primary"
          disabled={action.busy || !fullName.trim() || password.length < 6}
        >
          {t('invitePage.submit')}
        </button>
      </form>
      <Link to={paths.login({ user: invite.email })}>{t('invitePage.login')}</Link>
    </section>
  );
}
