import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { showUpgradeBox } from '@domain/ui-timings';
import { PRODUCT_SLUGS, paths } from '@/app/paths';
import { ChevronDown, CloseIcon, LogoMark, MenuIcon } from '@/components/icons';
import { avatarColourOf } from '@/components/avatar-colour';
import { withNamespaces } from '@/i18n/with-namespaces';
import { importWithRetry } from '@/lib/import-with-retry';
import { useServedCheck } from '@/lib/served-routes';
import { useSession } from '@/lib/session/session-provider';
import { accountMenuItems, initialsOf, type AccountMenuItem } from '@/lib/session/user-display';
import '@/components/top-nav.css';

const ACCOUNT_HREFS: Readonly<Record<AccountMenuItem, () => string>> = {
  profile: paths.accountProfile,
  domain: paths.domainSettings,
  teams: paths.teams,
  billing: paths.accountBilling,
  customize: paths.accountCustomize,
  webhooks: paths.accountWebhooks,
  apiKeys: paths.apiKeys,
};

/**
 * The notifications bell: its own chunk, with its catalogue, fetched only once someone is signed
 * in (the home and download pages' first load stays as it was). If it cannot load, the bar goes
 * without it rather than failing the page.
 */
const NotificationBell = lazy(
  // 'requests': the bell names uploads to the user's file requests (issue 13)
  withNamespaces(['insights', 'requests'], () =>
    importWithRetry(() => import('@/features/notifications/components/notification-bell')).then(
      (m): { default: ComponentType } => ({ default: m.NotificationBell }),
      (): { default: ComponentType } => ({ default: () => null }),
    ),
  ),
);

/** The avatar: the profile picture, or initials when there is none or its short-lived URL failed. */
function NavAvatar({ src, initials, seed }: { src?: string; initials: string; seed: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) return <img className="nav-avatar" src={src} alt="" onError={() => setFailed(src)} />;
  // issue 15: initials on the user's own colour (components/avatar-colour.ts); a styled span, not
  // the SVG InitialsAvatar, keeps the home's first load within its budget
  return (
    <span className="nav-avatar nav-avatar-initials" aria-hidden="true" style={{ background: avatarColourOf(seed), color: '#fff' }}>
      {initials}
    </span>
  );
}

/**
 * Top navigation (spec §2): Features dropdown, Pricing, 'Log in' or 'Dash'; for a signed-in
 * user the company logo when chosen, the Upgrade box (free role from the second login, not
 * on small screens) and the avatar with the account menu.
 */
export function TopNav() {
  const { t } = useTranslation();
  const location = useLocation();
  const { status, user, logout } = useSession();
  const [featuresOpen, setFeaturesOpen] = useState(false);
  const [accountOpen, setAccountOpen] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const featuresRef = useRef<HTMLLIElement>(null);
  const accountRef = useRef<HTMLDivElement>(null);
  const signedIn = status === 'authenticated' && user !== null;
  // Dashboard screens of later issues are linked once the router serves them (like Login was);
  // asked only for a signed-in user's menu, so a visitor's first render does not match routes.
  const isServed = useServedCheck();

  useEffect(() => {
    setFeaturesOpen(false);
    setAccountOpen(false);
    setMobileOpen(false);
  }, [location.pathname, location.search]);

  useEffect(() => {
    if (!featuresOpen && !mobileOpen && !accountOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setFeaturesOpen(false);
        setAccountOpen(false);
        setMobileOpen(false);
      }
    };
    const onClick = (event: MouseEvent) => {
      if (featuresRef.current && !featuresRef.current.contains(event.target as Node)) setFeaturesOpen(false);
      if (accountRef.current && !accountRef.current.contains(event.target as Node)) setAccountOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [featuresOpen, mobileOpen, accountOpen]);

  const productLinks = PRODUCT_SLUGS.map((slug) => (
    <li key={slug}>
      <NavLink to={paths.product(slug)} className="menu-link">
        <span className="menu-link-title">{t(`product.${slug}.name`)}</span>
        <span className="menu-link-sub">{t(`product.${slug}.tagline`)}</span>
      </NavLink>
    </li>
  ));

  const menuItems = signedIn ? accountMenuItems(user).filter((item) => isServed(ACCOUNT_HREFS[item]())) : [];
  const accountLinks = menuItems.map((item) => (
    <li key={item}>
      <NavLink to={ACCOUNT_HREFS[item]()} className="account-menu-link" data-testid={`nav-${item}`}>
        {t(`nav.${item}`)}
      </NavLink>
    </li>
  ));
  const logoutItem = (
    <li>
      <button type="button" className="account-menu-link" onClick={() => void logout()} data-testid="nav-logout">
        {t('nav.logout')}
      </button>
    </li>
  );
  // Spec §3 showLogoNav: the user's company logo replaces ours in the bar.
  const customLogo = signedIn && user.showLogoNav && user.logoPic ? user.logoPic : null;

  return (
    <header className="top-nav">
      <nav className="container top-nav-inner" aria-label={t('nav.main')}>
        <Link to={paths.home()} className="brand" aria-label={t('nav.homeLabel')}>
          {customLogo ? (
            <img className="brand-custom-logo" src={customLogo} alt={user?.company || t('common.appName')} />
          ) : (
            <>
              <LogoMark />
              <span>{t('common.appName')}</span>
            </>
          )}
        </Link>

        <ul className="nav-links">
          <li className="dropdown" ref={featuresRef}>
            <button
              type="button"
              className="nav-link"
              aria-expanded={featuresOpen}
              aria-controls="features-menu"
              onClick={() => setFeaturesOpen((open) => !open)}
            >
              {t('nav.features')} <ChevronDown />
            </button>
            {featuresOpen && (
              <ul id="features-menu" className="dropdown-menu">
                {productLinks}
              </ul>
            )}
          </li>
          <li>
            <NavLink to={paths.pricing()} className="nav-link">
              {t('nav.pricing')}
            </NavLink>
          </li>
        </ul>

        <div className="nav-actions">
          {signedIn ? (
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
              <div className="account-menu" ref={accountRef}>
                <button
                  type="button"
                  className="account-toggle"
                  aria-expanded={accountOpen}
                  aria-controls="account-menu"
                  // the initials the button shows are part of its name (WCAG 2.5.3 label in name)
                  aria-label={`${t('nav.account')}: ${initialsOf(user)}`}
                  title={user.email}
                  onClick={() => setAccountOpen((open) => !open)}
                  data-testid="nav-avatar"
                >
                  <NavAvatar src={user.profilePic} initials={initialsOf(user)} seed={user._id} />
                  <ChevronDown />
                </button>
                {accountOpen && (
                  <div id="account-menu" className="account-dropdown">
                    <p className="account-who">
                      <strong>{user.fullName || user.email}</strong>
                      {user.fullName && <span>{user.email}</span>}
                    </p>
                    <ul>
                      {accountLinks}
                      {logoutItem}
                    </ul>
                  </div>
                )}
              </div>
            </>
          ) : (
            <>
              <Link to={paths.login()} className="nav-link" data-testid="nav-login">
                {t('nav.login')}
              </Link>
              <Link to={paths.pricing({ plan: 'free' })} className="btn btn-primary btn-sm">
                {t('common.tryFree')}
              </Link>
            </>
          )}
        </div>

        {signedIn && (
          <Suspense fallback={null}>
            <NotificationBell />
          </Suspense>
        )}

        <button
          type="button"
          className="menu-toggle"
          aria-expanded={mobileOpen}
          aria-controls="mobile-menu"
          aria-label={mobileOpen ? t('nav.closeMenu') : t('nav.openMenu')}
          onClick={() => setMobileOpen((open) => !open)}
        >
          {mobileOpen ? <CloseIcon /> : <MenuIcon />}
        </button>
      </nav>

      {mobileOpen && (
        <div id="mobile-menu" className="mobile-menu">
          <div className="container">
            <p className="mobile-menu-heading">{t('nav.features')}</p>
            <ul className="mobile-menu-products">{productLinks}</ul>
            <ul className="mobile-menu-links">
              <li>
                <NavLink to={paths.pricing()}>{t('nav.pricing')}</NavLink>
              </li>
              <li>
                <NavLink to={paths.about()}>{t('nav.about')}</NavLink>
              </li>
              {signedIn ? (
                <li>
                  <NavLink to={paths.dash()} end>{t('nav.dash')}</NavLink>
                </li>
              ) : (
                <li>
                  <NavLink to={paths.login()}>{t('nav.login')}</NavLink>
                </li>
              )}
            </ul>
            {signedIn ? (
              <ul className="mobile-menu-links mobile-account-links">
                {accountLinks}
                {logoutItem}
              </ul>
            ) : (
              <Link to={paths.pricing({ plan: 'free' })} className="btn btn-primary btn-block">
                {t('common.tryFree')}
              </Link>
            )}
          </div>
        </div>
      )}
    </header>
  );
}
