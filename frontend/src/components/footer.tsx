import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PRODUCT_SLUGS, paths } from '@/app/paths';
import { LogoMark } from '@/components/icons';
import { FOOTER_LANGUAGES, LANGUAGE_NAMES, LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';

export function Footer() {
  const { t, i18n } = useTranslation();
  const current = toLanguage(i18n.resolvedLanguage);

  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <Link to={paths.home()} className="brand">
            <LogoMark />
            <span>{t('common.appName')}</span>
          </Link>
          <p>{t('footer.tagline')}</p>
        </div>
        <nav aria-label={t('footer.product')}>
          <h2>{t('footer.product')}</h2>
          <ul>
            {PRODUCT_SLUGS.map((slug) => (
              <li key={slug}>
                <Link to={paths.product(slug)}>{t(`product.${slug}.name`)}</Link>
              </li>
            ))}
            <li>
              <Link to={paths.pricing()}>{t('nav.pricing')}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label={t('footer.company')}>
          <h2>{t('footer.company')}</h2>
          <ul>
            <li>
              <Link to={paths.about()}>{t('nav.about')}</Link>
            </li>
            <li>
              <Link to={paths.updates()}>{t('footer.updates')}</Link>
            </li>
            <li>
              <Link to={paths.roadmap()}>{t('footer.roadmap')}</Link>
            </li>
            <li>
              <Link to={paths.affiliate()}>{t('footer.affiliate')}</Link>
            </li>
            <li>
              <Link to={paths.sumo()}>{t('footer.sumo')}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label={t('footer.resources')}>
          <h2>{t('footer.resources')}</h2>
          <ul>
            <li>
              <Link to={paths.support()}>{t('footer.support')}</Link>
            </li>
            <li>
              <Link to={paths.developers()}>{t('footer.developers')}</Link>
            </li>
            <li>
              <Link to={paths.compare('wetransfer')}>{t('compare.wetransfer.title')}</Link>
            </li>
            <li>
              <Link to={paths.compare('china')}>{t('compare.china.title')}</Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container footer-bottom">
        <p>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
        <div className="language-switch" role="group" aria-label={t('footer.language')}>
          {FOOTER_LANGUAGES.map((lng) => (
            <button
              key={lng}
              type="button"
              lang={LANGUAGE_TAGS[lng]}
              aria-pressed={current === lng}
              onClick={() => void i18n.changeLanguage(lng)}
            >
              {LANGUAGE_NAMES[lng]}
            </button>
          ))}
        </div>
      </div>
    </footer>
  );
}
