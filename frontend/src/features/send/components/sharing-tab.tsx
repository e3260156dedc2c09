import { useTranslation } from 'react-i18next';
import {
  setShareEveryone,
  sharesWithEveryone,
  toggleShare,
  type TeamMemberOption,
} from '@/shared/send-form/send-state';
import type { TabProps } from './option-tabs';

/** Who on the team sees the transfer: everyone, or the members ticked. */
export function SharingTab({ form, members, onChange }: TabProps & { members: readonly TeamMemberOption[] | null }) {
  const { t } = useTranslation();
  if (!members) return <p className="qs-muted">{t('send.sharing.justYou')}</p>;
  const ids = members.map((m) => m.shareWithId);
  const everyone = sharesWithEveryone(form, ids);
  return (
    <fieldset className="qs-fieldset">
      <legend className="qs-label">{t('send.sharing.legend')}</legend>
      <label className="qs-choice qs-switch">
        <input
          type="checkbox"
          role="switch"
          checked={everyone}
          aria-checked={everyone}
          onChange={(e) => onChange((f) => setShareEveryone(f, ids, e.target.checked))}
        />
        <span>{t('send.sharing.everyone')}</span>
      </label>
      <ul className="qs-members">
        {members.map((m) => (
          <li key={m.shareWithId}>
            <label className="qs-choice">
              <input
                type="checkbox"
                checked={form.shareWith.includes(m.shareWithId)}
                onChange={() => onChange((f) => toggleShare(f, m.shareWithId))}
              />
              {m.shareWithProfilePic ? (
                <img className="qs-avatar" src={m.shareWithProfilePic} alt="" width={24} height={24} />
              ) : (
                <span className="qs-avatar" aria-hidden="true">
                  {(m.shareWithFullName || m.shareWithEmail).slice(0, 1).toUpperCase()}
                </span>
              )}
              <span>
                {m.shareWithFullName || m.shareWithEmail}
                {m.shareWithFullName && <span className="qs-muted"> · {m.shareWithEmail}</span>}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
