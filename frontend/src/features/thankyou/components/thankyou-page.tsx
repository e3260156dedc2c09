import { useTranslation } from 'react-i18next';
import { HomeSupportActions } from '@/components/home-support-actions';
import { CheckIcon } from '@/components/icons';
import { usePageTitle } from '@/lib/use-page-title';

/** /thankyou (and /accept-invite): all set. /thankyou2: the 7-day trial has started. */
export function ThankyouPage({ variant }: { variant: 'done' | 'trial' }) {
  const { t } = useTranslation();
  const title = variant === 'trial' ? t('thankyou.trialTitle') : t('thankyou.title');
  usePageTitle(title);

  return (
    <section className="container narrow center-block">
      <span className="success-mark" aria-hidden="true">
        <CheckIcon width={36} height={36} />
      </span>
      <h1>{title}</h1>
      <p className="lead">{variant === 'trial' ? t('thankyou.trialBody') : t('thankyou.body')}</p>
      <HomeSupportActions />
    </section>
  );
}

export function ThankyouDonePage() {
  return <ThankyouPage variant="done" />;
}

export function ThankyouTrialPage() {
  return <ThankyouPage variant="trial" />;
}
