import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { limitsFor } from '@domain/plans';
import type { RegionId } from '@domain/regions';
import type { RegionView } from '@domain/settings-api';
import { signalBars } from '@domain/signal';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { errorTextOf } from '@/i18n/error-keys';
import { formatCount } from '@/lib/format';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchRegions, saveRegion } from '../settings-api';
import { measureAll } from '../speed-test';
import { SignalBars } from './signal-bars';
import '../settings.css';

/** ms per region: undefined while measuring, NaN when no sample answered. */
type Speeds = Readonly<Partial<Record<RegionId, number>>>;

type Save =
  | { kind: 'idle' }
  | { kind: 'saving'; region: RegionId }
  | { kind: 'saved'; region: RegionId }
  | { kind: 'failed'; message: string };

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
  const [regions, setRegions] = useState<readonly RegionView[] | null>(null);
  // spec §9's default until GET /regions says this deployment's (a value import of domain/regions would split it out of the home page's chunk)
  const [defaultRegion, setDefaultRegion] = useState<RegionId>('hongkong');
  const [loadFailed, setLoadFailed] = useState(false);
  const [speeds, setSpeeds] = useState<Speeds>({});
  const [testing, setTesting] = useState(false);
  const [save, setSave] = useState<Save>({ kind: 'idle' });
  const run = useRef<AbortController | null>(null);

  /** Fresh URLs (they are short-lived), then every offered region measured in parallel. */
  const test = useCallback(async () => {
    run.current?.abort();
    const controller = new AbortController();
    run.current = controller;
    setTesting(true);
    setSpeeds({});
    try {
      const list = await fetchRegions(controller.signal);
      if (controller.signal.aborted) return;
      setRegions(list.regions);
      setDefaultRegion(list.defaultRegion);
      setLoadFailed(false);
      const targets = list.regions.flatMap((r) =>
        r.speedTestUrl ? [{ regionId: r.regionId, url: r.speedTestUrl }] : [],
      );
      await measureAll(
        targets,
        (regionId, ms) => setSpeeds((s) => ({ ...s, [regionId]: ms })),
        undefined,
        controller.signal,
      );
    } catch {
      if (!controller.signal.aborted) setLoadFailed(true);
    } finally {
      if (run.current === controller) setTesting(false);
    }
  }, []);

  useEffect(() => {
    void test();
    return () => run.current?.abort();
  }, [test]);

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
    setSave({ kind: 'saving', region });
    try {
      await saveRegion(user._id, region);
      setUser({ ...user, region });
      setSave({ kind: 'saved', region });
    } catch (err) {
      const text = errorTextOf(err);
      setSave({ kind: 'failed', message: tApp(text.key, text.params) });
    }
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
          {offered.map((r) => {
            const ms = speeds[r.regionId];
            const bars = ms === undefined ? null : signalBars(ms);
            const isCurrent = r.regionId === current;
            const busy = save.kind === 'saving';
            return (
              <li
                key={r.regionId}
                className={`region-row${isCurrent ? ' region-row-current' : ''}`}
                data-testid={`region-row-${r.regionId}`}
              >
                <div className="region-name">
                  <span>{regionName(r.regionId)}</span>
                  {isCurrent && (
                    <span className="badge badge-brand" data-testid="region-current">
                      {t('residency.current')}
                    </span>
                  )}
                </div>
                <div className="region-speed">
                  <span
                    className="region-ms"
                    data-testid={`region-ms-${r.regionId}`}
                    data-ms={ms === undefined || !Number.isFinite(ms) ? '' : String(Math.round(ms))}
                  >
                    {speedText(r.regionId)}
                  </span>
                  <SignalBars
                    bars={bars}
                    label={bars === null ? '' : t('residency.bars', { bars })}
                    testId={`region-bars-${r.regionId}`}
                  />
                </div>
                <div className="region-action">
                  {!r.available ? (
                    <span className="muted">{t('residency.notAvailable')}</span>
                  ) : isCurrent ? null : (
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      disabled={!mayChoose || busy}
                      aria-describedby={!mayChoose ? `${ids}-plan` : undefined}
                      onClick={() => void choose(r.regionId)}
                      data-testid={`region-choose-${r.regionId}`}
                    >
                      {save.kind === 'saving' && save.region === r.regionId
                        ? t('residency.saving')
                        : t('residency.choose', { region: regionName(r.regionId) })}
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
        {!mayChoose && (
          <p id={`${ids}-plan`} className="sr-only">
            {t('residency.planNote', { plan: planName, region: regionName(defaultRegion) })}
          </p>
        )}
        <p
          role="status"
          className={save.kind === 'failed' ? 'dash-error' : 'dash-save-status'}
          data-testid="region-status"
        >
          {save.kind === 'saved'
            ? t('residency.chosen', { region: regionName(save.region) })
            : save.kind === 'failed'
              ? save.message
              : ''}
        </p>
      </section>

      {notOffered.length > 0 && (
        <section className="card" aria-labelledby={`${ids}-not-offered`} data-testid="regions-not-offered">
          <h2 id={`${ids}-not-offered`}>{t('residency.notOfferedTitle')}</h2>
          <ul className="region-list region-list-muted">
            {notOffered.map((r) => (
              <li key={r.regionId} className="region-row" data-testid={`region-not-offered-${r.regionId}`}>
                <div className="region-name">{regionName(r.regionId)}</div>
                <div className="muted">{t('residency.notOfferedTitle')}</div>
              </li>
            ))}
          </ul>
          <p className="dash-hint">
            {t('residency.notOfferedReason', { regions: notOffered.map((r) => regionName(r.regionId)).join(', ') })}
          </p>
        </section>
      )}

      <section className="card" aria-labelledby={`${ids}-where`}>
        <h2 id={`${ids}-where`}>{t('residency.whereTitle')}</h2>
        <ul className="settings-where">
          <li>{t('residency.whereFiles')}</li>
          <li>{t('residency.whereExisting')}</li>
          <li>{t('residency.whereAccount')}</li>
          <li>{t('residency.whereGuests', { region: regionName(defaultRegion) })}</li>
        </ul>
      </section>
    </div>
  );
}
