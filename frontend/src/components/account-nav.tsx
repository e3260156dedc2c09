import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { useDismiss } from '@/lib/use-dismiss';
import type { SessionUser } from '@domain/auth-api';
import { showUpgradeBox } from '@domain/ui-timings';
import { paths } from '@/app/paths';
import { ChevronDown } from '@/components/icons';
import { avatarColourOf } from '@/components/avatar-colour';
import { useServedCheck } from '@/lib/served-routes';
import { accountMenuItems, initialsOf, type AccountMenuItem } from '@/lib/session/user-display';

/**
 * The signed-in user's part of the top navigation (components/top-nav.tsx): a chunk of its own,
 * fetched once someone is signed in, so that a visitor's first load (home, the download page)
 * does not carry it.
 */

const ACCOUNT_HREFS: Readonly<Record<AccountMenuItem, () => string>> = {
  profile: paths.accountProfile,
  domain: paths.domainSettings,
  teams: paths.teams,
  billing: paths.accountBilling,
  customize: paths.accountCustomize,
  webhooks: paths.accountWebhooks,
  apiKeys: paths.apiKeys,
};

/** The avatar: the profile picture, or initials when there is none or its short-lived URL failed. */
function NavAvatar({ src, initials, seed }: { src?: string; initials: string; seed: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) return <img className="nav-avatar" src={src} alt="" onError={() => setFailed(src)} />;
  // initials on the user's own colour (components/avatar-colour.ts); a styled span, not
  // the SVG InitialsAvatar, keeps the home's first load within its budget
  return (
    <span
      className="nav-avatar nav-avatar-initials"
      aria-hidden="true"
      style={{ background: avatarColourOf(seed), color: '#fff' }}
    >
      {initials}
    </span>
  );
}

export interface AccountNavProps {
  readonly user: SessionUser;
  readonly logout: () => Promise<unknown>;
}

/** The account menu's entries (those the router serves) and Log out, as list items. */
export function AccountLinks({ user, logout }: AccountNavProps) {
  const { t } = useTranslation();
  // Dashboard screens of later issues are linked once the router serves them (like Login was).
  const isServed = useServedCheck();
  return (
    <>
      {accountMenuItems(user)
        .filter((item) => isServed(ACCOUNT_HREFS[item]()))
        .map((item) => (
          <li key={item}>
            <NavLink to={ACCOUNT_HREFS[item]()} className="account-menu-link" data-testid={`nav-${item}`}>
              {t(`nav.${item}`)}
            </NavLink>
          </li>
        ))}
      <li>
        <button type="button" className="account-menu-link" onClick={() => void logout()} data-testid="nav-logout">
          {t('nav.logout')}
        </button>
      </li>
    </>
  );
}

/** The Upgrade box (free role from the second login, not on small screens), Dash and the avatar with the account menu. */
export function AccountNav({ user, logout }: AccountNavProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => setOpen(false), [location.pathname, location.search]);

  useDismiss(open, ref, () => setOpen(false));

  return (
    <>
      {showUpgradeBox({ role: user.role, loginCount: user.loginCount, smallScreen: false }) && (
        // Small screens are left out by top-nav.css, so the box never squeezes the bar.
        <Link to={paths.pricing()} className="upgrade-box" data-testid="nav-upgrade">
          <span>{t('nav.upgradeHint')}</span> <strong>{t('nav.upgrade')}</strong>
        </Link>
      )}
      <NavLink to={paths.dash()} end className="nav-link" data-testid="nav-dash">
        {t('nav.dash')}
      </NavLink>
      <div className="account-menu" ref={ref}>
        <button
          type="button"
          className="account-toggle"
          aria-expanded={open}
          aria-controls="account-menu"
          // the initials the button shows are part of its name (WCAG 2.5.3 label in name)
          aria-label={`${t('nav.account')}: ${initialsOf(user)}`}
          title={user.email}
          onClick={() => setOpen((o) => !o)}
          data-testid="nav-avatar"
        >
          <NavAvatar src={user.profilePic} initials={initialsOf(user)} seed={user._id} />
          <ChevronDown />
        </button>
        {open && (
          <div id="account-menu" className="account-dropdown">
            <p className="account-who">
              <strong>{user.fullName || user.email}</strong>
              {user.fullName && <span>{user.email}</span>}
            </p>
            <ul>
              <AccountLinks user={user} logout={logout} />
            </ul>
          </div>
        )}
      </div>
    </>
  );
}
