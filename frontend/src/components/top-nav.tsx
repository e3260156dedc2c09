import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { PRODUCT_SLUGS, paths } from '@/app/paths';
import { ChevronDown, CloseIcon, LogoMark, MenuIcon } from '@/components/icons';
import { useIsServed } from '@/lib/served-routes';

/** Built by the Accounts issue; linked only once the router serves it. */
const LOGIN_PATH = '/login';

export function TopNav() {
  const { t } = useTranslation();
  const location = useLocation();
  const [featuresOpen, setFeaturesOpen] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const featuresRef = useRef<HTMLLIElement>(null);
  const showLogin = useIsServed(LOGIN_PATH);

  useEffect(() => {
    setFeaturesOpen(false);
    setMobileOpen(false);
  }, [location.pathname, location.search]);

  useEffect(() => {
    if (!featuresOpen && !mobileOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setFeaturesOpen(false);
        setMobileOpen(false);
      }
    };
    const onClick = (event: MouseEvent) => {
      if (featuresRef.current && !featuresRef.current.contains(event.target as Node)) setFeaturesOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [featuresOpen, mobileOpen]);

  const productLinks = PRODUCT_SLUGS.map((slug) => (
    <li key={slug}>
      <NavLink to={paths.product(slug)} className="menu-link">
        <span className="menu-link-title">{t(`product.${slug}.name`)}</span>
        <span className="menu-link-sub">{t(`product.${slug}.tagline`)}</span>
      </NavLink>
    </li>
  ));

  return (
    <header className="top-nav">
      <nav className="container top-nav-inner" aria-label={t('nav.main')}>
        <Link to={paths.home()} className="brand" aria-label={t('nav.homeLabel')}>
          <LogoMark />
          <span>{t('common.appName')}</span>
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
          {showLogin && (
            <Link to={LOGIN_PATH} className="nav-link">
              {t('nav.login')}
            </Link>
          )}
          <Link to={paths.pricing({ plan: 'free' })} className="btn btn-primary btn-sm">
            {t('common.tryFree')}
          </Link>
        </div>

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
              {showLogin && (
                <li>
                  <NavLink to={LOGIN_PATH}>{t('nav.login')}</NavLink>
                </li>
              )}
            </ul>
            <Link to={paths.pricing({ plan: 'free' })} className="btn btn-primary btn-block">
              {t('common.tryFree')}
            </Link>
          </div>
        </div>
      )}
    </header>
  );
}
