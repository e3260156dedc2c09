import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/page-header';
import { company } from '@/config/company';
import { usePageTitle } from '@/lib/use-page-title';
// the redeem form (its `billing` catalogue comes with this route)
import { SumoRedeem } from '@/features/billing/components/sumo-redeem';

const STEPS = ['step1', 'step2', 'step3'] as const;

export function SumoPage() {
  const { t } = useTranslation();
  usePageTitle(t('sumo.title'));

  return (
    <div className="container narrow">
      <PageHeader title={t('sumo.heading')} lead={t('sumo.subtitle')} />
      <section className="card section-tight">
        <h2>{t('sumo.stackTitle')}</h2>
        <p>{t('sumo.stackBody')}</p>
        <div className="code-stack" aria-hidden="true">
          {Array.from({ length: 8 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: eight fixed, decorative digits
            <span key={index}>{index + 1}</span>
          ))}
        </div>
      </section>
      <SumoRedeem />
      <section className="section-tight">
        <h2>{t('sumo.redeemTitle')}</h2>
        <ol className="numbered">
          {STEPS.map((step) => (
            <li key={step}>{t(`sumo.${step}`)}</li>
          ))}
        </ol>
      </section>
      <p className="muted">
        {t('sumo.questions')} <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>
      </p>
    </div>
  );
}
