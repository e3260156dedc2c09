import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/app/paths';
import { PlanSizeItems } from '@/components/plan-size-items';
import { ArrowRight } from '@/components/icons';
import { formatPrice } from '@/lib/format';
import { CARD_ROLES, plan } from '@/lib/plans';

const STEPS = ['add', 'send', 'track'] as const;
/** Support articles answered on the home page; the full list lives on /support. */
const FAQ = ['getting-started', 'file-size', 'security', 'trial-refund', 'file-types'] as const;

/** How a send goes, in three steps. */
export function HomeSteps() {
  const { t } = useTranslation();
  return (
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
  );
}

/** The plans in short, with the way to the pricing page. */
export function HomePlans() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
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
  );
}

/** The most asked questions, with the way to /support. */
export function HomeFaq() {
  const { t } = useTranslation();
  return (
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
  );
}
