import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '@/components/page-loading';
import { errorTextOf } from '@/i18n/error-keys';
import { countryName } from '@/lib/country-name';
import { formatCount } from '@/lib/format';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchAnalytics } from '../analytics-api';
import { bucketLabel, bucketTick, completeSeries } from '../series';
import { useAnalyticsRange } from '../use-analytics-range';
import { useCsvExport } from '../use-csv-export';
import { AnalyticsControls } from './analytics-controls';
import { AnalyticsReport } from './analytics-report';
import '../analytics.css';

/**
 * Analytics (spec §2 /dash/analytics): downloads over time by day, week or month in a chosen
 * range, by country on a map and in a table, top transfers, unique recipients, and the CSV
 * export of every download. The range lives in the address (?from&to&interval).
 */
export function AnalyticsPage() {
  const { t, i18n } = useTranslation('insights');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  usePageTitle(t('analytics.title'));
  const { range, interval, problem, preset, update } = useAnalyticsRange();

  const load = useLoad(
    (signal) => fetchAnalytics(range.from, range.to, interval, signal),
    [range.from, range.to, interval],
    { enabled: !problem },
  );

  const unknown = t('country.unknown');
  const nameOf = useCallback((code: string) => countryName(code, lng, unknown), [lng, unknown]);
  const bucketName = useCallback((start: string) => bucketLabel(start, interval, lng), [interval, lng]);
  const tickName = useCallback((start: string) => bucketTick(start, interval, lng), [interval, lng]);
  const countName = useCallback((n: number) => formatCount(n, lng), [lng]);
  const data = load.state === 'ready' ? load.data : null;
  const series = useMemo(() => (data ? completeSeries(data.series, data.from, data.to, data.interval) : []), [data]);
  const { exporting, onExport } = useCsvExport(range, nameOf);

  const problemText = problem ? t(`analytics.range.${problem}`) : null;

  return (
    <div className="container dash-page analytics" data-testid="analytics-page">
      <header className="analytics-head">
        <div>
          <h1>{t('analytics.title')}</h1>
          <p className="analytics-lead">{t('analytics.lead')}</p>
        </div>
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => void onExport()}
          disabled={exporting === 'busy' || problem !== null}
          data-testid="analytics-export"
        >
          {exporting === 'busy' ? t('analytics.export.busy') : t('analytics.export.button')}
        </button>
      </header>
      {exporting === 'empty' && (
        <p role="status" className="analytics-note">
          {t('analytics.export.empty')}
        </p>
      )}
      {exporting === 'failed' && (
        <p role="alert" className="analytics-error">
          {t('analytics.export.failed')}
        </p>
      )}

      <AnalyticsControls range={range} interval={interval} preset={preset} update={update} />

      {problemText ? (
        <p role="alert" className="analytics-error">
          {problemText}
        </p>
      ) : load.state === 'loading' ? (
        <PageLoading />
      ) : load.state === 'failed' ? (
        <p role="alert" className="analytics-error">
          {(() => {
            const text = errorTextOf(load.error);
            return tApp(text.key, text.params);
          })()}
        </p>
      ) : data && data.totalDownloads === 0 ? (
        <div className="card analytics-empty" data-testid="analytics-empty">
          <h2>{t('analytics.empty.title')}</h2>
          <p>{t('analytics.empty.body')}</p>
        </div>
      ) : data ? (
        <AnalyticsReport
          data={data}
          series={series}
          interval={interval}
          nameOf={nameOf}
          bucketName={bucketName}
          tickName={tickName}
          countName={countName}
        />
      ) : null}
    </div>
  );
}
