import { useTranslation } from 'react-i18next';
import type { TeamView } from '@domain/teams-api';
import { Avatar } from './avatar';

/** What a team member sees: who the admin is, and the team. */
export function MemberTeam({ team }: { team: TeamView }) {
  const { t } = useTranslation('teams');
  const admin = team.members.find((m) => m.isAdmin);
  return (
    <div className="container dash-page tm-page">
      <h1>{t('member.title')}</h1>
      <p>{t('member.body', { admin: admin?.shareWithFullName || admin?.shareWithEmail || '' })}</p>
      <ul className="tm-list" aria-label={t('members.title')}>
        {team.members.map((m) => (
          <li key={m.shareWithId} className="tm-row">
            <span className="tm-person">
              <Avatar m={m} />
              <span>
                {m.shareWithFullName || m.shareWithEmail}{' '}
                {m.isAdmin && <span className="tm-muted">· {t('members.admin')}</span>}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
