import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TeamView } from '@domain/teams-api';
import { paths } from '@/app/paths';
import { useAction } from '@/lib/use-action';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchTeam, inviteMember, removeMember, resendInvite, revokeInvite } from '../api/teams-api';
import { useTeamErrorText } from '../team-errors';
import { InvitesSection } from './invites-section';
import { MembersSection } from './members-section';
import { MemberTeam } from './member-team';
import '../teams.css';

type Notice = { readonly kind: 'success' | 'error'; readonly text: string } | null;

/**
 * /dash/account/teams (spec §2, §9 team sizes): the admin invites by email up to the
 * plan's seats, resends or revokes pending invites and removes members (their transfers stay
 * with the admin). A plan without seats shows the upgrade path; a member sees the team only.
 */
export function TeamsPage() {
  const { t, i18n } = useTranslation('teams');
  const lng = i18n.resolvedLanguage ?? 'en';
  const errorText = useTeamErrorText();
  const emailId = useId();
  usePageTitle(t('title'));
  const [team, setTeam] = useState<TeamView | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [email, setEmail] = useState('');
  const action = useAction({ errorText });

  const load = useCallback(
    (signal?: AbortSignal) =>
      fetchTeam(signal)
        .then(setTeam)
        .catch((err: unknown) => {
          if (!signal?.aborted) setNotice({ kind: 'error', text: errorText(err) });
        }),
    [errorText],
  );
  useEffect(() => {
    const abort = new AbortController();
    void load(abort.signal);
    return () => abort.abort();
  }, [load]);

  // what an action came to is said in the notice; the team is loaded again either way
  const act = async (work: () => Promise<string>) => {
    await action.run(async () => setNotice({ kind: 'success', text: await work() }), {
      onError: (_err, text) => setNotice({ kind: 'error', text }),
    });
    await load();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const address = email.trim().toLowerCase();
    if (!address) return;
    void act(async () => {
      await inviteMember(address, lng);
      setEmail('');
      return t('invite.sent', { email: address });
    });
  };

  const day = (ms: number) => new Intl.DateTimeFormat(lng, { dateStyle: 'medium' }).format(ms);
  const noticeLine = (
    <p
      className={`tm-notice${notice?.kind === 'error' ? ' tm-notice-error' : ''}`}
      role="status"
      data-testid="teams-notice"
    >
      {notice?.text ?? ''}
    </p>
  );

  if (!team) {
    return (
      <div className="container dash-page tm-page">
        <h1>{t('title')}</h1>
        {noticeLine}
      </div>
    );
  }

  if (team.role === 'member') return <MemberTeam team={team} />;

  // No seats and nobody in the team: the upgrade path (a downgraded admin still sees and removes members).
  if (team.role === 'none') {
    return (
      <div className="container dash-page tm-page">
        <h1>{t('title')}</h1>
        <section className="card">
          <h2>{t('upgrade.title')}</h2>
          <p>{t('upgrade.body')}</p>
          <Link to={paths.account({ tab: 1 })} className="btn btn-primary" data-testid="teams-upgrade">
            {t('upgrade.button')}
          </Link>
        </section>
      </div>
    );
  }

  const full = team.used >= team.limit;
  return (
    <div className="container dash-page tm-page">
      <header>
        <h1>{t('title')}</h1>
        <p className="muted">{t('lead')}</p>
        <p className="tm-seats" data-testid="teams-seats">
          {t('seats', { used: team.used, limit: team.limit })}
        </p>
      </header>
      {noticeLine}
      <form className="card tm-invite" onSubmit={submit} noValidate data-testid="teams-invite-form">
        <div className="field">
          <label htmlFor={emailId}>{t('invite.label')}</label>
          <input
            id={emailId}
            className="field-input"
            type="email"
            autoComplete="off"
            maxLength={254}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            disabled={full}
            required
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={action.busy || full || !email.trim()}>
          {t('invite.button')}
        </button>
        {full && <p className="tm-muted">{t('full')}</p>}
      </form>

      <MembersSection
        team={team}
        headingId={`${emailId}-members`}
        busy={action.busy}
        day={day}
        onRemove={(id, name) =>
          act(async () => {
            await removeMember(id);
            return t('members.removed', { name });
          })
        }
      />

      <InvitesSection
        team={team}
        headingId={`${emailId}-invites`}
        busy={action.busy}
        day={day}
        onResend={(i) =>
          void act(async () => {
            await resendInvite(i.id, lng);
            return t('invites.resent', { email: i.email });
          })
        }
        onRevoke={(i) =>
          void act(async () => {
            await revokeInvite(i.id);
            return t('invites.revoked', { email: i.email });
          })
        }
      />
    </div>
  );
}
