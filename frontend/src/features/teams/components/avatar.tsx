import type { TeamMemberView } from '@domain/teams-api';

/** A person's picture, or the first letter of their name. */
export function Avatar({ m }: { m: TeamMemberView }) {
  const initial = (m.shareWithFullName || m.shareWithEmail).slice(0, 1).toUpperCase();
  return m.shareWithProfilePic ? (
    <img className="tm-avatar" src={m.shareWithProfilePic} alt="" width={36} height={36} />
  ) : (
    <span className="tm-avatar" aria-hidden="true">
      {initial}
    </span>
  );
}
