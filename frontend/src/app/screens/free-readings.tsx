import { useTranslation } from 'react-i18next';
import { FREE_MARKETING_FILE_SIZE_BYTES, FREE_MARKETING_STORAGE_BYTES, PLANS } from '@domain/plans';
import { formatBytes } from '@/lib/format';

/** Spec §1/§9: the sign-up offer (20 GB / 5 GB) and the plan table (10 GB / 3 GB) both stand; this says why. */
export function FreeReadings() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const marketing = {
    storage: formatBytes(FREE_MARKETING_STORAGE_BYTES, lng),
    file: formatBytes(FREE_MARKETING_FILE_SIZE_BYTES, lng),
  };
  const free = PLANS.free;
  return (
    <aside className="callout" aria-labelledby="free-readings">
      <h2 id="free-readings">{t('pricing.freeReadings.title')}</h2>
      <p>{t('pricing.freeReadings.body')}</p>
      <dl className="callout-figures">
        <div>
          <dt>{t('pricing.freeReadings.offer')}</dt>
          <dd>{t('home.plans.storage', { size: marketing.storage })}</dd>
          <dd>{t('pricing.freeReadings.perFile', { size: marketing.file })}</dd>
        </div>
        <div>
          <dt>{t('pricing.freeReadings.planTable')}</dt>
          <dd>{t('home.plans.storage', { size: formatBytes(free.storage, lng) })}</dd>
          <dd>{t('home.plans.perTransfer', { size: formatBytes(free.uploadLimit, lng) })}</dd>
        </div>
      </dl>
    </aside>
  );
}
