import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/page-header';
import { MAPPED_REGIONS, REGION_LABEL_AT, REGION_LOCATIONS } from '@/components/region-pins';
import { WorldMap, type MapPin } from '@/components/world-map';
import { company } from '@/config/company';
import { usePageTitle } from '@/lib/use-page-title';

export function AboutPage() {
  const { t } = useTranslation();
  usePageTitle(t('about.title'));

  // The office is in Hong Kong, next to the Hong Kong region, so one pin marks both.
  const pins: MapPin[] = MAPPED_REGIONS.map(
    (id): MapPin =>
      id === 'hongkong'
        ? {
            id,
            label: `${t('regions.hongkong')} · ${t('about.officeMarker')}`,
            lonLat: REGION_LOCATIONS[id],
            kind: 'office',
            labelAt: REGION_LABEL_AT[id],
          }
        : { id, label: t(`regions.${id}`), lonLat: REGION_LOCATIONS[id], kind: 'region', labelAt: REGION_LABEL_AT[id] },
  );

  return (
    <div className="container">
      <PageHeader title={t('about.heading')} lead={t('about.intro')} />
      <p className="prose">{t('about.story')}</p>

      <div className="card-grid card-grid-2 section-tight">
        <section className="card">
          <h2>{t('about.office')}</h2>
          <address>
            <strong>{company.legalName}</strong>
            {company.addressLines.map((line) => (
              <span key={line}>{line}</span>
            ))}
          </address>
        </section>
        <section className="card">
          <h2>{t('about.contact')}</h2>
          <p>
            {t('about.contactBody')} <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>
          </p>
          <p className="muted">{t('about.hours')}</p>
        </section>
      </div>

      <figure className="map-figure">
        <WorldMap title={t('about.mapTitle')} pins={pins} />
        <figcaption>{t('about.mapCaption')}</figcaption>
      </figure>
    </div>
  );
}
