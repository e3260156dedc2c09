import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlanSizeItems } from '@/components/plan-size-items';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { ArrowRight, FeatureIcon } from '@/components/icons';
import { MAPPED_REGIONS, REGION_LABEL_AT, REGION_LOCATIONS } from '@/components/region-pins';
import { WorldMap } from '@/components/world-map';
import { SignupModalButton } from '@/features/auth/components/signup-modal-button';
import { QuickSend } from '@/features/send/components/quick-send';
import { formatPrice } from '@/lib/format';
import { CARD_ROLES, plan } from '@/lib/plans';
import { usePageTitle } from '@/lib/use-page-title';
import { whenIdle } from '@/lib/when-idle';
import type { HomeExtras } from '@/features/home/components/home-extras';

const STEPS = ['add', 'send', 'track'] as const;
const FEATURES = ['regions', 'security', 'tracking', 'requests', 'teams', 'resume'] as const;
/** Support articles answered on the home page; the full list lives on /support. */
const FAQ = ['getting-started', 'file-size', 'security', 'trial-refund', 'file-types'] as const;

/**
 * The formats strip and the example toasts (components/home-extras.tsx) with their
 * catalogue; nothing of them is in a first load. Wide screens get them once the page has loaded
 * and the browser is idle; narrow ones (no toasts there, the strip far below the fold) on the
 * first scroll, so a phone's first view does no late work at all.
 */
function useHomeExtras(): HomeExtras | null {
  const [extras, setExtras] = useState<HomeExtras | null>(null);
  useEffect(() => {
    let live = true;
    const load = () => {
      window.removeEventListener('scroll', load);
      import('@/features/home/components/home-extras')
        .then((m) => m.loadHomeExtras())
        .then((loaded) => live && setExtras(loaded))
        .catch(() => undefined); // extras only: the page works without them
    };
    let cancel: (() => void) | undefined;
    if (window.matchMedia('(min-width: 641px)').matches) cancel = whenIdle(load);
    else window.addEventListener('scroll', load, { passive: true });
    return () => {
      live = false;
      cancel?.();
      window.removeEventListener('scroll', load);
    };
  }, []);
  return extras;
}

export function HomePage() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  usePageTitle(t('home.title'));
  const extras = useHomeExtras();
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

      <section className="section below-fold" aria-labelledby="steps-title">
        <div className="container">
          <h2 id="steps-title" className="section-title">
            {t('home.steps.title')}
          </h2>
          <ol className="steps">
            {STEPS.map((step, index) => (
              <li key={step} className="step">
                <span className="step-number">{index + 1}</span>
                <h3>{t(`home.steps.${step}.title`)}</h3>
                <p>{t(`home.steps.${step}.body`)}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section below-fold section-alt" aria-labelledby="features-title">
        <div className="container">
          <h2 id="features-title" className="section-title">
            {t('home.features.title')}
          </h2>
          <div className="card-grid">
            {FEATURES.map((feature) => (
              <article key={feature} className="card feature-card">
                <span className="feature-icon">
                  <FeatureIcon name={feature} />
                </span>
                <h3>{t(`home.features.${feature}.title`)}</h3>
                <p>{t(`home.features.${feature}.body`)}</p>
              </article>
            ))}
          </div>
          <figure className="map-figure">
            <WorldMap
              title={t('home.features.regions.title')}
              arcsFrom="hongkong"
              pins={MAPPED_REGIONS.map((id) => ({
                id,
                label: t(`regions.${id}`),
                lonLat: REGION_LOCATIONS[id],
                kind: 'region',
                labelAt: REGION_LABEL_AT[id],
              }))}
            />
            <figcaption>
              <ul className="region-chips" aria-label={t('home.features.regions.title')}>
                {MAPPED_REGIONS.map((id) => (
                  <li key={id}>{t(`regions.${id}`)}</li>
                ))}
              </ul>
            </figcaption>
          </figure>
        </div>
      </section>

      <section className="section below-fold" aria-labelledby="plans-title">
        <div className="container">
          <h2 id="plans-title" className="section-title">
            {t('home.plans.title')}
          </h2>
          <p className="section-lead">{t('home.plans.subtitle')}</p>
          <div className="card-grid card-grid-4">
            {CARD_ROLES.map((role) => {
              const limits = plan(role);
              return (
                <article key={role} className="card plan-highlight">
                  <h3>{t(`plans.${role}`)}</h3>
                  <p className="plan-price">
                    {limits.price && limits.price.monthly > 0 ? (
                      <>
                        {formatPrice(limits.price.monthly, lng)}
                        <span>{t('pricing.perMonth')}</span>
                      </>
                    ) : (
                      formatPrice(0, lng)
                    )}
                  </p>
                  <ul className="check-list">
                    <PlanSizeItems uploadLimit={limits.uploadLimit} storage={limits.storage} />
                  </ul>
                </article>
              );
            })}
          </div>
          <p className="center">
            <Link to={paths.pricing()} className="btn btn-ghost">
              {t('home.plans.cta')} <ArrowRight />
            </Link>
          </p>
        </div>
      </section>

      <section className="section below-fold section-alt" aria-labelledby="faq-title">
        <div className="container narrow">
          <h2 id="faq-title" className="section-title">
            {t('home.faq.title')}
          </h2>
          <div className="faq">
            {FAQ.map((id) => (
              <details key={id} className="faq-item">
                <summary>{t(`support.items.${id}.title`)}</summary>
                {t(`support.items.${id}.body`)
                  .split('\n\n')
                  .map((paragraph) => (
                    <p key={paragraph}>{paragraph}</p>
                  ))}
              </details>
            ))}
          </div>
          <p className="center">
            <Link to={paths.support()} className="text-link">
              {t('home.faq.more')} <ArrowRight />
            </Link>
          </p>
        </div>
      </section>
      {extras && !uploadStarted && <extras.ExampleToasts />}
    </>
  );
}
