import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { ArrowRight } from '@/components/icons';
import { SignupModalButton } from '@/features/auth/components/signup-modal-button';
import { QuickSend } from '@/features/send/components/quick-send';
import { usePageTitle } from '@/lib/use-page-title';
import { useScreenReady } from '@/lib/use-screen-ready';
import { HomeFeatures } from './home-features';
import { HomeFaq, HomePlans, HomeSteps } from './home-sections';
import { useHomeExtras } from './use-home-extras';

export function HomePage() {
  const { t } = useTranslation();
  usePageTitle(t('home.title'));
  const extras = useHomeExtras();
  useScreenReady('home');
  // Made-up activity has no place beside the visitor's own upload: the example toasts stop for good once one starts.
  const [uploadStarted, setUploadStarted] = useState(false);

  return (
    <>
      <section className="hero">
        <div className="container hero-grid">
          <div>
            <p className="eyebrow">{t('home.hero.eyebrow')}</p>
            <h1 className="hero-title">{t('home.hero.title')}</h1>
            <p className="lead">{t('home.hero.subtitle')}</p>
            <div className="hero-actions">
              <Link to={paths.pricing({ plan: 'free' })} className="btn btn-primary btn-lg">
                {t('home.hero.primary')} <ArrowRight />
              </Link>
              <Link to={paths.pricing()} className="btn btn-ghost btn-lg">
                {t('home.hero.secondary')}
              </Link>
            </div>
            <p className="hero-trust">{t('home.hero.trust')}</p>
          </div>
          <div className="hero-send">
            <QuickSend onUploadStart={() => setUploadStarted(true)} />
          </div>
        </div>
      </section>

      <section className="section below-fold">
        <div className="container">
          <div className="signup-block">
            <div>
              <h2>{t('home.signup.title')}</h2>
              <p>{t('home.signup.body')}</p>
            </div>
            <SignupModalButton className="btn btn-light btn-lg">{t('home.signup.cta')}</SignupModalButton>
          </div>
        </div>
      </section>

      {/* the "customer logos" strip: its height is reserved, so its late arrival shifts nothing */}
      <div className="container logo-strip-slot">{extras && <extras.LogoStrip />}</div>

      <HomeSteps />

      <HomeFeatures />

      <HomePlans />

      <HomeFaq />

      {extras && !uploadStarted && <extras.ExampleToasts />}
    </>
  );
}
