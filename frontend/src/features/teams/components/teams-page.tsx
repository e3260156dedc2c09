import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TeamMemberView, TeamView } from '@domain/teams-api';
import { paths } from '@/app/paths';
import { InlineConfirm, useInlineConfirm } from '@/components/inline-confirm';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchTeam, inviteMember, removeMember, resendInvite, revokeInvite } from '../api/teams-api';
import { useTeamErrorText } from '../team-errors';
import '../teams.css';

type Notice = { readonly kind: 'success' | 'error'; readonly text: string } | null;

function Avatar({ m }: { m: TeamMemberView }) {
  const initial = (m.shareWithFullName || m.shareWithEmail).slice(0, 1).toUpperCase();
  return m.shareWithProfilePic ? <img className="tm-avatar" src={m.shareWithProfilePic} alt="" width={36} height={36} /> : <span className="tm-avatar" aria-hidden="true">{initial}</span>;
}

/**
 * /dash/account/teams (spec §2, §9 team sizes): the admin invites by email up to the
 * plan's seats, resends or revokes pending invites and removes members (their transfers stay
 * with the admin). A plan without seats shows the upgrade path; a member sees the team only.
 */
export function TeamsPage() {
  const { t, i18n } = useTranslation('teams');
  const lng = i18n.resolvedLanguage ?? 'en';
  const errorText = useTeamErrorText();
  const { user } = useSession();
  const emailId = useId();
  usePageTitle(t('title'));
  const [team, setTeam] = useState<TeamView | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);

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

  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    try {
      setNotice({ kind: 'success', text: await work() });
    } catch (err) {
      setNotice({ kind: 'error', text: errorText(err) });
    } finally {
      setBusy(false);
      await load();
    }
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
    <p className={`tm-notice${notice?.kind === 'error' ? ' tm-notice-error' : ''}`} role="status" data-testid="teams-notice">
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

  if (team.role === 'member') {
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
                  {m.shareWithFullName || m.shareWithEmail} {m.isAdmin && <span className="tm-muted">· {t('members.admin')}</span>}
                </span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    );
  }

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
          <input id={emailId} className="field-input" type="email" autoComplete="off" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} disabled={full} required />
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy || full || !email.trim()}>
          {t('invite.button')}
        </button>
        {full && <p className="tm-muted">{t('full')}</p>}
      </form>

      <section className="card" aria-labelledby={`${emailId}-members`}>
        <h2 id={`${emailId}-members`}>{t('members.title')}</h2>
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
                    onRemove={() => act(async () => (await removeMember(m.shareWithId), t('members.removed', { name: m.shareWithFullName || m.shareWithEmail })))}
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section className="card" aria-labelledby={`${emailId}-invites`}>
        <h2 id={`${emailId}-invites`}>{t('invites.title')}</h2>
        {team.invites.length === 0 ? (
          <p className="tm-muted">{t('invites.none')}</p>
        ) : (
          <ul className="tm-list">
            {team.invites.map((i) => (
              <li key={i.id} className="tm-row" data-testid="teams-invite">
                <span>
                  <strong>{i.email}</strong>
                  <br />
                  <span className="tm-muted">{i.state === 'expired' ? t('invites.expired') : t('invites.expires', { date: day(i.expiresAt) })}</span>
                </span>
                <span className="tm-actions">
                  <button type="button" className="btn btn-ghost btn-sm" disabled={busy} aria-label={`${t('invites.resend')} ${i.email}`} onClick={() => void act(async () => (await resendInvite(i.id, lng), t('invites.resent', { email: i.email })))}>
                    {t('invites.resend')}
                  </button>
                  <button type="button" className="btn btn-ghost btn-sm" disabled={busy} aria-label={`${t('invites.revoke')} ${i.email}`} onClick={() => void act(async () => (await revokeInvite(i.id), t('invites.revoked', { email: i.email })))}>
                    {t('invites.revoke')}
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** A member's Remove, asked inline; focus goes to Keep, and back to Remove when the question closes. */
function RemoveMember({ name, busy, onRemove }: { name: string; busy: boolean; onRemove: () => Promise<void> }) {
  const { t } = useTranslation('teams');
  const confirm = useInlineConfirm();
  if (!confirm.open) {
    return (
      <button type="button" className="btn btn-ghost btn-sm" ref={confirm.triggerRef} onClick={confirm.ask} aria-label={`${t('members.remove')} ${name}`}>
        {t('members.remove')}
      </button>
    );
  }
  return (
    <InlineConfirm
      className="tm-actions tm-confirm"
      small
      question={t('members.removeConfirm', { name })}
      confirmLabel={t('members.remove')}
      confirmClassName="btn btn-danger btn-sm"
      cancelLabel={t('members.keep')}
      busy={busy}
      onConfirm={() => void onRemove().then(confirm.close)}
      onCancel={confirm.close}
      testId="teams-remove-confirm"
    />
  );
}
