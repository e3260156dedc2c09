import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { paths } from '@/app/paths';
import type { SessionUser } from '@domain/auth-api';
import { AccountLinks } from '@/components/top-nav-lazy';

/** The small screens' menu: the products, the site's links, and the account's or a sign-up. */
export function MobileMenu({
  productLinks,
  user,
  logout,
}: {
  productLinks: ReactNode;
  user: SessionUser | null;
  logout: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const signedIn = user !== null;
  return (
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
  );
}
