import { useTranslation } from 'react-i18next';
import type { TeamView } from '@domain/teams-api';
import { useSession } from '@/lib/session/session-provider';
import { Avatar } from './avatar';
import { RemoveMember } from './remove-member';

export interface MembersSectionProps {
  readonly team: TeamView;
  readonly headingId: string;
  readonly busy: boolean;
  readonly day: (ms: number) => string;
  onRemove(memberId: string, name: string): Promise<void>;
}

/** The admin's team: each member, joined or not yet, with Remove (the admin has none). */
export function MembersSection({ team, headingId, busy, day, onRemove }: MembersSectionProps) {
  const { t } = useTranslation('teams');
  const { user } = useSession();
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('members.title')}</h2>
      <p className="tm-muted">{t('removalNote')}</p>
      <ul className="tm-list">
        {team.members.map((m) => (
          <li key={m.shareWithId} className="tm-row" data-testid="teams-member">
            <span className="tm-person">
              <Avatar m={m} />
              <span>
                <strong>{m.shareWithFullName || m.shareWithEmail}</strong>
                {m.shareWithFullName && <span className="tm-muted"> · {m.shareWithEmail}</span>}
                <br />
                <span className="tm-muted">
                  {m.isAdmin
                    ? `${t('members.admin')}${m.shareWithId === user?._id ? ` · ${t('members.you')}` : ''}`
                    : m.finished_onboarding
                      ? t('members.joined', { date: m.joinedAt ? day(m.joinedAt) : '' })
                      : t('members.notOnboarded')}
                </span>
              </span>
            </span>
            {!m.isAdmin && (
              <div className="tm-actions">
                <RemoveMember
                  name={m.shareWithFullName || m.shareWithEmail}
                  busy={busy}
                  onRemove={() => onRemove(m.shareWithId, m.shareWithFullName || m.shareWithEmail)}
                />
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
