import { useTranslation } from 'react-i18next';
import { FeatureIcon } from '@/components/icons';
import { MAPPED_REGIONS, REGION_LABEL_AT, REGION_LOCATIONS } from '@/components/region-pins';
import { WorldMap } from '@/components/world-map';

const FEATURES = ['regions', 'security', 'tracking', 'requests', 'teams', 'resume'] as const;

/** The home page's features, and the regions on the map. */
export function HomeFeatures() {
  const { t } = useTranslation();
  return (
    <section className="section below-fold section-alt" aria-labelledby="features-title">
      <div className="container">
        <h2 id="features-title" className="section-title">
          {t('home.features.title')}
        </h2>
        <div className="card-grid">
          {FEATURES.map((feature) => (
            <article key={feature} className="card feature-card">
              <span className="feature-icon">
                <FeatureIcon name={feature} />
              </span>
              <h3>{t(`home.features.${feature}.title`)}</h3>
              <p>{t(`home.features.${feature}.body`)}</p>
            </article>
          ))}
        </div>
        <figure className="map-figure">
          <WorldMap
            title={t('home.features.regions.title')}
            arcsFrom="hongkong"
            pins={MAPPED_REGIONS.map((id) => ({
              id,
              label: t(`regions.${id}`),
              lonLat: REGION_LOCATIONS[id],
              kind: 'region',
              labelAt: REGION_LABEL_AT[id],
            }))}
          />
          <figcaption>
            <ul className="region-chips" aria-label={t('home.features.regions.title')}>
              {MAPPED_REGIONS.map((id) => (
                <li key={id}>{t(`regions.${id}`)}</li>
              ))}
            </ul>
          </figcaption>
        </figure>
      </div>
    </section>
  );
}
