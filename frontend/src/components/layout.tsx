import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { Footer } from '@/components/footer';
import { TopNav } from '@/components/top-nav';
import { useRouteHead } from '@/lib/route-head';

export function Layout() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  useRouteHead();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      {navigation.state === 'loading' && <div className="nav-progress" aria-hidden="true" />}
      <TopNav />
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
