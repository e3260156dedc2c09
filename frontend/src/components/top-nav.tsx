import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { PRODUCT_SLUGS, paths } from '@/app/paths';
import { ChevronDown, CloseIcon, LogoMark, MenuIcon } from '@/components/icons';
import { AccountLinks, AccountNav, NotificationBell } from '@/components/top-nav-lazy';
import { useNavMenus } from '@/components/use-nav-menus';
import { useSession } from '@/lib/session/session-provider';
import '@/components/top-nav.css';

/**
 * Top navigation (spec §2): Features dropdown, Pricing, 'Log in' or 'Dash'; for a signed-in
 * user the company logo when chosen, the Upgrade box (free role from the second login, not
 * on small screens) and the avatar with the account menu.
 */
export function TopNav() {
  const { t } = useTranslation();
  const { status, user, logout } = useSession();
  const [featuresOpen, setFeaturesOpen, mobileOpen, setMobileOpen, featuresRef] = useNavMenus();
  const signedIn = status === 'authenticated' && user !== null;

  const productLinks = PRODUCT_SLUGS.map((slug) => (
    <li key={slug}>
      <NavLink to={paths.product(slug)} className="menu-link">
        <span className="menu-link-title">{t(`product.${slug}.name`)}</span>
        <span className="menu-link-sub">{t(`product.${slug}.tagline`)}</span>
      </NavLink>
    </li>
  ));

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
            <Suspense fallback={null}>
              <AccountNav user={user} logout={logout} />
            </Suspense>
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
                  <NavLink to={paths.dash()} end>
                    {t('nav.dash')}
                  </NavLink>
                </li>
              ) : (
                <li>
                  <NavLink to={paths.login()}>{t('nav.login')}</NavLink>
                </li>
              )}
            </ul>
            {signedIn ? (
              <ul className="mobile-menu-links mobile-account-links">
                <Suspense fallback={null}>
                  <AccountLinks user={user} logout={logout} />
                </Suspense>
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
