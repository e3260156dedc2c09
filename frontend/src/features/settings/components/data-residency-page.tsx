import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { limitsFor } from '@domain/plans';
import type { RegionId } from '@domain/regions';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { formatCount } from '@/lib/format';
import { useSession } from '@/lib/session/session-provider';
import { useAction } from '@/lib/use-action';
import { usePageTitle } from '@/lib/use-page-title';
import { saveRegion } from '../settings-api';
import { useRegionSpeeds } from '../use-region-speeds';
import { RegionRow } from './region-row';
import { RegionsNotOffered, WhereDataLives } from './residency-notes';
import '../settings.css';

/**
 * /dash/data-residency (spec §2 Region picker): the offered regions with their speed
 * from this browser (median of 3 timed HEADs on each region's 128 KB object) in ms and signal
 * bars, the current default marked, the choice (paid plans), the regions not offered and why,
 * and where each kind of data lives.
 */
export function DataResidencyPage() {
  const { t } = useTranslation('settings');
  const { t: tApp, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const { user, setUser } = useSession();
  const ids = useId();
  usePageTitle(t('residency.title'));
  const { regions, defaultRegion, loadFailed, speeds, testing, test } = useRegionSpeeds();
  const action = useAction();
  const [chosen, setChosen] = useState<RegionId | null>(null);

  if (!user) return <PageLoading />;
  const plan = limitsFor(user.role);
  const mayChoose = plan.regionChoice;
  // The plan's name as the dashboard says it (use-plan-name.ts), inline so this screen shares no chunk with the account page.
  const planName = i18n.exists(`plans.${user.role}`) ? tApp(`plans.${user.role}` as 'plans.free') : plan.displayName;
  const current: RegionId = user.region ?? defaultRegion;
  const regionName = (id: RegionId) =>
    i18n.exists(`regions.${id}`)
      ? tApp(`regions.${id}` as 'regions.hongkong')
      : t(`regionNames.${id}` as 'regionNames.hangzhou');
  const offered = regions?.filter((r) => r.offered) ?? [];
  const notOffered = regions?.filter((r) => !r.offered) ?? [];

  const choose = async (region: RegionId) => {
    setChosen(null);
    await action.run(
      async () => {
        await saveRegion(user._id, region);
        setUser({ ...user, region });
        setChosen(region);
      },
      { tag: region },
    );
  };

  const speedText = (id: RegionId) => {
    const ms = speeds[id];
    if (ms === undefined) return testing ? t('residency.measuring') : t('residency.noAnswer');
    return Number.isFinite(ms)
      ? t('residency.speed', { ms: formatCount(Math.round(ms), lng) })
      : t('residency.noAnswer');
  };

  return (
    <div className="container dash-page settings-page">
      <h1>{t('residency.title')}</h1>
      <p className="lead muted">{t('residency.lead')}</p>

      {!mayChoose && (
        <div className="card settings-plan-note" data-testid="residency-plan-note">
          <p>{t('residency.planNote', { plan: planName, region: regionName(defaultRegion) })}</p>
          <Link to={paths.pricing()} className="btn btn-primary btn-sm" data-testid="residency-upgrade">
            {t('residency.upgrade')}
          </Link>
        </div>
      )}

      <section className="card" aria-labelledby={`${ids}-picker`} aria-busy={testing || undefined}>
        <div className="settings-card-head">
          <h2 id={`${ids}-picker`}>{t('residency.pickerTitle')}</h2>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => void test()}
            disabled={testing}
            data-testid="region-retest"
          >
            {testing ? t('residency.testing') : t('residency.retest')}
          </button>
        </div>
        <p className="dash-hint">{t('residency.pickerHint')}</p>
        {loadFailed && (
          <p className="dash-error" role="alert">
            {t('residency.loadFailed')}
          </p>
        )}
        {!regions && !loadFailed && <PageLoading />}
        <ul className="region-list" data-testid="region-list">
          {offered.map((r) => (
            <RegionRow
              key={r.regionId}
              region={r}
              name={regionName(r.regionId)}
              ms={speeds[r.regionId]}
              speedText={speedText(r.regionId)}
              isCurrent={r.regionId === current}
              mayChoose={mayChoose}
              busy={action.busy}
              saving={action.busyWith === r.regionId}
              planNoteId={`${ids}-plan`}
              onChoose={(region) => void choose(region)}
            />
          ))}
        </ul>
        {!mayChoose && (
          <p id={`${ids}-plan`} className="sr-only">
            {t('residency.planNote', { plan: planName, region: regionName(defaultRegion) })}
          </p>
        )}
        <p role="status" className={action.error ? 'dash-error' : 'dash-save-status'} data-testid="region-status">
          {chosen ? t('residency.chosen', { region: regionName(chosen) }) : (action.error ?? '')}
        </p>
      </section>

      {notOffered.length > 0 && (
        <RegionsNotOffered id={`${ids}-not-offered`} regions={notOffered} regionName={regionName} />
      )}

      <WhereDataLives id={`${ids}-where`} guestRegion={regionName(defaultRegion)} />
    </div>
  );
}
