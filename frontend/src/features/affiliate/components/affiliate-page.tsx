import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/page-header';
import { company } from '@/config/company';
import { usePageTitle } from '@/lib/use-page-title';

const STEPS = ['apply', 'share', 'earn'] as const;

export function AffiliatePage() {
  const { t } = useTranslation();
  usePageTitle(t('affiliate.title'));
  const subject = encodeURIComponent('SendBridge affiliate program');

  return (
    <div className="container">
      <PageHeader title={t('affiliate.title')} lead={t('affiliate.subtitle')} />
      <ol className="steps">
        {STEPS.map((step, index) => (
          <li key={step} className="step">
            <span className="step-number">{index + 1}</span>
            <h2>{t(`affiliate.${step}.title`)}</h2>
            <p>{t(`affiliate.${step}.body`)}</p>
          </li>
        ))}
      </ol>
      <section className="callout section-tight">
        <h2>{t('affiliate.whoTitle')}</h2>
        <p>{t('affiliate.whoBody')}</p>
        <a className="btn btn-primary" href={`mailto:${company.partnersEmail}?subject=${subject}`}>
          {t('affiliate.cta')}
        </a>
      </section>
    </div>
  );
}
