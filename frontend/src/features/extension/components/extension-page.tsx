import { useTranslation } from 'react-i18next';
import { Link, useLoaderData } from 'react-router';
import { paths } from '@/app/paths';
import { CheckIcon } from '@/components/icons';
import type { extensionLoader } from '@/features/extension/extension-loader';
import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';
import { useNoIndex } from '@/lib/use-no-index';
import { usePageTitle } from '@/lib/use-page-title';

/** The dashboard (spec §2 /dash) is built by a later issue; the link is its address meanwhile. */
const MY_ACCOUNT_HREF = '/dash';

/** /extension/{id}: the result of the sender's approve link (spec §2 "Extension result"). */
export function ExtensionPage() {
  const result = useLoaderData<typeof extensionLoader>();
  const { t, i18n } = useTranslation();
  const title = result.status === 'extended' ? t('extension.extendedTitle') : t('extension.expiredTitle');
  usePageTitle(title);
  // A one-off link from an email: nothing here for search engines.
  useNoIndex();

  return (
    <section className="container narrow center-block">
      {result.status === 'extended' ? (
        <>
          <span className="success-mark" aria-hidden="true">
            <CheckIcon width={36} height={36} />
          </span>
          <h1 data-testid="extension-title">{title}</h1>
          <p className="lead" data-testid="extension-expiry">
            {t('extension.newExpiry', {
              date: new Intl.DateTimeFormat(LANGUAGE_TAGS[toLanguage(i18n.language)], {
                dateStyle: 'long',
                timeStyle: 'short',
              }).format(new Date(result.expiryDate)),
            })}
          </p>
          <p className="muted">{t('extension.receiverNotified')}</p>
          <div className="hero-actions center-actions">
            <Link to={MY_ACCOUNT_HREF} className="btn btn-primary" data-testid="extension-my-account">
              {t('extension.myAccount')}
            </Link>
          </div>
        </>
      ) : (
        <>
          <h1 data-testid="extension-title">{title}</h1>
          <p className="lead">{t('extension.expiredBody')}</p>
          <div className="hero-actions center-actions">
            <Link to={paths.home()} className="btn btn-ghost">
              {t('common.backHome')}
            </Link>
          </div>
        </>
      )}
    </section>
  );
}
