import { useTranslation } from 'react-i18next';
import type { TeamView } from '@domain/teams-api';

export interface InvitesSectionProps {
  readonly team: TeamView;
  readonly headingId: string;
  readonly busy: boolean;
  readonly day: (ms: number) => string;
  onResend(invite: TeamView['invites'][number]): void;
  onRevoke(invite: TeamView['invites'][number]): void;
}

/** The pending invites, each with Resend and Revoke. */
export function InvitesSection({ team, headingId, busy, day, onResend, onRevoke }: InvitesSectionProps) {
  const { t } = useTranslation('teams');
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('invites.title')}</h2>
      {team.invites.length === 0 ? (
        <p className="tm-muted">{t('invites.none')}</p>
      ) : (
        <ul className="tm-list">
          {team.invites.map((i) => (
            <li key={i.id} className="tm-row" data-testid="teams-invite">
              <span>
                <strong>{i.email}</strong>
                <br />
                <span className="tm-muted">
                  {i.state === 'expired' ? t('invites.expired') : t('invites.expires', { date: day(i.expiresAt) })}
                </span>
              </span>
              <span className="tm-actions">
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  disabled={busy}
                  aria-label={`${t('invites.resend')} ${i.email}`}
                  onClick={() => onResend(i)}
                >
                  {t('invites.resend')}
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  disabled={busy}
                  aria-label={`${t('invites.revoke')} ${i.email}`}
                  onClick={() => onRevoke(i)}
                >
                  {t('invites.revoke')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
