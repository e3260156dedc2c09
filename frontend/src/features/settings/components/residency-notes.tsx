import { useTranslation } from 'react-i18next';
import type { RegionId } from '@domain/regions';
import type { RegionView } from '@domain/settings-api';

/** The regions this deployment does not offer, and why. */
export function RegionsNotOffered({
  id,
  regions,
  regionName,
}: {
  id: string;
  regions: readonly RegionView[];
  regionName: (id: RegionId) => string;
}) {
  const { t } = useTranslation('settings');
  return (
    <section className="card" aria-labelledby={id} data-testid="regions-not-offered">
      <h2 id={id}>{t('residency.notOfferedTitle')}</h2>
      <ul className="region-list region-list-muted">
        {regions.map((r) => (
          <li key={r.regionId} className="region-row" data-testid={`region-not-offered-${r.regionId}`}>
            <div className="region-name">{regionName(r.regionId)}</div>
            <div className="muted">{t('residency.notOfferedTitle')}</div>
          </li>
        ))}
      </ul>
      <p className="dash-hint">
        {t('residency.notOfferedReason', { regions: regions.map((r) => regionName(r.regionId)).join(', ') })}
      </p>
    </section>
  );
}

/** Where each kind of data lives. */
export function WhereDataLives({ id, guestRegion }: { id: string; guestRegion: string }) {
  const { t } = useTranslation('settings');
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{t('residency.whereTitle')}</h2>
      <ul className="settings-where">
        <li>{t('residency.whereFiles')}</li>
        <li>{t('residency.whereExisting')}</li>
        <li>{t('residency.whereAccount')}</li>
        <li>{t('residency.whereGuests', { region: guestRegion })}</li>
      </ul>
    </section>
  );
}
