import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { usePageTitle } from '@/lib/use-page-title';
import { removeMember, resendInvite, revokeInvite } from '../api/teams-api';
import { useTeam } from '../use-team';
import { InviteForm } from './invite-form';
import { InvitesSection } from './invites-section';
import { MembersSection } from './members-section';
import { MemberTeam } from './member-team';
import '../teams.css';

/**
 * /dash/account/teams (spec §2, §9 team sizes): the admin invites by email up to the
 * plan's seats, resends or revokes pending invites and removes members (their transfers stay
 * with the admin). A plan without seats shows the upgrade path; a member sees the team only.
 */
export function TeamsPage() {
  const { t, i18n } = useTranslation('teams');
  const lng = i18n.resolvedLanguage ?? 'en';
  const emailId = useId();
  usePageTitle(t('title'));
  const { team, notice, busy, act } = useTeam();

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
      <InviteForm id={emailId} full={full} busy={busy} act={act} />

      <MembersSection
        team={team}
        headingId={`${emailId}-members`}
        busy={busy}
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
        busy={busy}
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
