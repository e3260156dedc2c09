import { useTranslation } from 'react-i18next';
import { EXAMPLE_ACTIVITY } from '@/features/home/example-toasts';
import { countryName } from '@/lib/country-name';
import { formatBytes } from '@/lib/format';
import { useExampleToasts } from '../use-example-toasts';

/**
 * The example toasts: each shown 5.8 s, the next 2 s after (example-toasts.ts). Marked
 * "Example"; never for a signed-in user nor under prefers-reduced-motion; hidden for the visit
 * by its close button. Not a live region (made-up activity is not worth announcing) and never
 * focused: a visitor's focus stays where it is.
 */
export function ExampleToasts() {
  const {
    t,
    i18n: { resolvedLanguage },
  } = useTranslation('marketing');
  const lng = resolvedLanguage ?? 'en';
  const { index, hide } = useExampleToasts();

  if (index === null) return null;
  const activity = EXAMPLE_ACTIVITY[index]!;
  const unknown = '?';
  const text = t(`toasts.${activity.kind}`, {
    size: formatBytes(activity.bytes, lng),
    from: countryName(activity.from, lng, unknown),
    to: countryName(activity.to, lng, unknown),
  });
  return (
    <aside className="example-toast" aria-label={t('toasts.label')} data-example-toast={index}>
      <span className="example-toast-badge">{t('toasts.example')}</span>
      <p className="example-toast-text">{text}</p>
      <button
        type="button"
        className="example-toast-close"
        aria-label={t('toasts.dismiss')}
        title={t('toasts.dismiss')}
        onClick={hide}
      >
        <span aria-hidden="true">×</span>
      </button>
    </aside>
  );
}
