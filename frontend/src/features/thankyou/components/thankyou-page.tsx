import { useTranslation } from 'react-i18next';
import { HomeSupportActions } from '@/components/home-support-actions';
import { CheckIcon } from '@/components/icons';
import { usePageTitle } from '@/lib/use-page-title';

/** /thankyou (and /accept-invite): all set. /thankyou2, the trial's, is features/billing's (issue 14). */
export function ThankyouDonePage() {
  const { t } = useTranslation();
  usePageTitle(t('thankyou.title'));

  return (
    <section className="container narrow center-block">
      <span className="success-mark" aria-hidden="true">
        <CheckIcon width={36} height={36} />
      </span>
      <h1>{t('thankyou.title')}</h1>
      <p className="lead">{t('thankyou.body')}</p>
      <HomeSupportActions />
    </section>
  );
}
