import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { inviteMember } from '../api/teams-api';

/** The invitation by email; off while the team is full. */
export function InviteForm({
  id,
  full,
  busy,
  act,
}: {
  id: string;
  full: boolean;
  busy: boolean;
  act: (work: () => Promise<string>) => Promise<void>;
}) {
  const { t, i18n } = useTranslation('teams');
  const lng = i18n.resolvedLanguage ?? 'en';
  const [email, setEmail] = useState('');

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

  return (
    <form className="card tm-invite" onSubmit={submit} noValidate data-testid="teams-invite-form">
      <div className="field">
        <label htmlFor={id}>{t('invite.label')}</label>
        <input
          id={id}
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
      <button type="submit" className="btn btn-primary" disabled={busy || full || !email.trim()}>
        {t('invite.button')}
      </button>
      {full && <p className="tm-muted">{t('full')}</p>}
    </form>
  );
}
