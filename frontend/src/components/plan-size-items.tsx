import { useTranslation } from 'react-i18next';
import { CheckIcon } from '@/components/icons';
import { formatBytes } from '@/lib/format';

/** A plan's size limits as items of a check list (the home page's plans and the pricing page). */
export function PlanSizeItems({ uploadLimit, storage }: { uploadLimit: number; storage: number }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <>
      <li>
        <CheckIcon /> {t('home.plans.perTransfer', { size: formatBytes(uploadLimit, lng) })}
      </li>
      <li>
        <CheckIcon /> {t('home.plans.storage', { size: formatBytes(storage, lng) })}
      </li>
    </>
  );
}
