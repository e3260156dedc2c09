import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PRODUCT_SLUGS, isProductSlug, paths } from '@/app/paths';
import { ArrowRight, CheckIcon } from '@/components/icons';
import { PageHeader } from '@/components/page-header';
import { usePageTitle } from '@/lib/use-page-title';

const POINTS = ['p1', 'p2', 'p3'] as const;

export function ProductPage() {
  const { t } = useTranslation();
  const { slug: rawSlug } = useParams();
  // The loader already sent unknown slugs to /404/.
  const slug = isProductSlug(rawSlug) ? rawSlug : PRODUCT_SLUGS[0];
  usePageTitle(t(`product.${slug}.name`));

  return (
    <div className="container">
      <PageHeader
        eyebrow={t('productPage.eyebrow')}
        title={t(`product.${slug}.name`)}
        lead={t(`product.${slug}.tagline`)}
      />
      <section className="product-body">
        <p className="product-intro">{t(`productPage.${slug}.intro`)}</p>
        <ul className="check-list check-list-lg">
          {POINTS.map((point) => (
            <li key={point}>
              <CheckIcon /> {t(`productPage.${slug}.${point}`)}
            </li>
          ))}
        </ul>
        <Link to={paths.pricing()} className="btn btn-primary">
          {t('common.seePlans')} <ArrowRight />
        </Link>
      </section>

      <section className="section-tight" aria-labelledby="more-features">
        <h2 id="more-features">{t('productPage.more')}</h2>
        <div className="card-grid">
          {PRODUCT_SLUGS.filter((other) => other !== slug).map((other) => (
            <Link key={other} to={paths.product(other)} className="card card-link">
              <h3>{t(`product.${other}.name`)}</h3>
              <p>{t(`product.${other}.tagline`)}</p>
            </Link>
          ))}
        </div>
      </section>
    </div>
  );
}
