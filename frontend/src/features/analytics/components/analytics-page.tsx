import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ANALYTICS_INTERVALS, type AnalyticsInterval } from '@domain/dashboard-api';
import { PageLoading } from '@/components/page-loading';
import { dashPaths } from '@/app/dash-paths';
import { errorTextOf } from '@/i18n/error-keys';
import { countryName } from '@/lib/country-name';
import { formatCount } from '@/lib/format';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import { fetchAllDownloadRows, fetchAnalytics } from '../analytics-api';
import { csvFileName, downloadsCsv } from '../csv';
import { DEFAULT_PRESET, RANGE_PRESETS, presetOf, presetRange, rangeProblem, type DayRange } from '../date-range';
import { bucketLabel, bucketTick, completeSeries } from '../series';
import { DownloadsChart } from './downloads-chart';
import { WorldMap } from './world-map';
import '../analytics.css';

function isInterval(value: string | null): value is AnalyticsInterval {
  return value !== null && (ANALYTICS_INTERVALS as readonly string[]).includes(value);
}

/** Hands the browser a file made here (the CSV export). */
function saveFile(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

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
  const [params, setParams] = useSearchParams();
  const fallback = useMemo(() => presetRange(DEFAULT_PRESET, Date.now()), []);
  const range: DayRange = { from: params.get('from') ?? fallback.from, to: params.get('to') ?? fallback.to };
  const intervalParam = params.get('interval');
  const interval: AnalyticsInterval = isInterval(intervalParam) ? intervalParam : 'day';
  const problem = rangeProblem(range);
  const preset = presetOf(range, Date.now());
  const [exporting, setExporting] = useState<'idle' | 'busy' | 'empty' | 'failed'>('idle');

  const update = (next: Partial<DayRange & { interval: AnalyticsInterval }>) => {
    const merged = { ...range, interval, ...next };
    setParams({ from: merged.from, to: merged.to, interval: merged.interval }, { replace: true });
  };

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

  const onExport = async () => {
    setExporting('busy');
    try {
      const rows = await fetchAllDownloadRows(range.from, range.to);
      if (rows.length === 0) {
        setExporting('empty');
        return;
      }
      const csv = downloadsCsv(rows, {
        header: [
          t('analytics.csv.date'),
          t('analytics.csv.transfer'),
          t('analytics.csv.file'),
          t('analytics.csv.origin'),
          t('analytics.csv.country'),
          t('analytics.csv.countryCode'),
          t('analytics.csv.recipient'),
        ],
        origin: { file: t('analytics.csv.originFile'), zip: t('analytics.csv.originZip') },
        countryName: nameOf,
      });
      saveFile(csv, csvFileName(range.from, range.to));
      setExporting('idle');
    } catch {
      setExporting('failed');
    }
  };

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

      <form
        className="analytics-controls card"
        onSubmit={(e) => e.preventDefault()}
        aria-label={t('analytics.range.label')}
      >
        <div className="analytics-presets" role="group" aria-label={t('analytics.range.presets')}>
          {RANGE_PRESETS.map((days) => (
            <button
              key={days}
              type="button"
              className="btn btn-ghost btn-sm analytics-preset"
              aria-pressed={preset === days}
              onClick={() => update(presetRange(days, Date.now()))}
              data-testid={`analytics-preset-${days}`}
            >
              {t(`analytics.range.last${days}`)}
            </button>
          ))}
        </div>
        <DateField
          label={t('analytics.range.from')}
          value={range.from}
          max={range.to}
          onPick={(from) => update({ from })}
          testId="analytics-from"
        />
        <DateField
          label={t('analytics.range.to')}
          value={range.to}
          min={range.from}
          onPick={(to) => update({ to })}
          testId="analytics-to"
        />
        <label className="analytics-field">
          <span>{t('analytics.interval.label')}</span>
          <select
            value={interval}
            onChange={(e) => isInterval(e.target.value) && update({ interval: e.target.value })}
            data-testid="analytics-interval"
          >
            {ANALYTICS_INTERVALS.map((value) => (
              <option key={value} value={value}>
                {t(`analytics.interval.${value}`)}
              </option>
            ))}
          </select>
        </label>
      </form>

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
        <>
          <dl className="analytics-stats">
            <div className="card">
              <dt>{t('analytics.stats.totalDownloads')}</dt>
              <dd data-testid="analytics-total">{countName(data.totalDownloads)}</dd>
            </div>
            <div className="card">
              <dt>{t('analytics.stats.uniqueRecipients')}</dt>
              <dd data-testid="analytics-recipients">{countName(data.uniqueRecipients)}</dd>
            </div>
            <div className="card">
              <dt>{t('analytics.stats.countries')}</dt>
              <dd>{countName(data.countries.filter((c) => c.countryCode !== 'XX').length)}</dd>
            </div>
          </dl>

          <section className="card analytics-section" aria-labelledby="analytics-over-time">
            <h2 id="analytics-over-time">{t('analytics.overTime.title')}</h2>
            <DownloadsChart
              series={series}
              bucketName={bucketName}
              bucketTick={tickName}
              bucketTitle={t(`analytics.overTime.bucket.${interval}`)}
              countName={countName}
              seriesName={t('analytics.table.downloads')}
            />
            <details className="analytics-details">
              <summary>{t('analytics.overTime.asTable')}</summary>
              <DownloadsTable firstColumn={t(`analytics.overTime.bucket.${interval}`)}>
                {series.map((p) => (
                  <tr key={p.start}>
                    <th scope="row">
                      <time dateTime={p.start}>{bucketName(p.start)}</time>
                    </th>
                    <td className="num">{countName(p.downloads)}</td>
                  </tr>
                ))}
              </DownloadsTable>
            </details>
          </section>

          <section className="card analytics-section" aria-labelledby="analytics-by-country">
            <h2 id="analytics-by-country">{t('analytics.byCountry.title')}</h2>
            <div className="analytics-country">
              <WorldMap
                countries={data.countries}
                title={t('analytics.byCountry.mapTitle')}
                legendFewer={t('analytics.byCountry.fewer')}
                legendMore={t('analytics.byCountry.more')}
              />
              <DownloadsTable firstColumn={t('analytics.table.country')} testId="analytics-countries">
                {data.countries.map((c) => (
                  <tr key={c.countryCode}>
                    <th scope="row">{nameOf(c.countryCode)}</th>
                    <td className="num">{countName(c.downloads)}</td>
                  </tr>
                ))}
              </DownloadsTable>
            </div>
          </section>

          <section className="card analytics-section" aria-labelledby="analytics-top">
            <h2 id="analytics-top">{t('analytics.top.title')}</h2>
            <DownloadsTable firstColumn={t('analytics.table.transfer')} testId="analytics-top">
              {data.topTransfers.map((top) => (
                <tr key={top.slug}>
                  <th scope="row">
                    <Link to={dashPaths.transfer(top.slug)}>{top.fileName}</Link>
                  </th>
                  <td className="num">{countName(top.downloads)}</td>
                </tr>
              ))}
            </DownloadsTable>
          </section>
        </>
      ) : null}
    </div>
  );
}

/** One end of the date range; a cleared field changes nothing. */
function DateField({
  label,
  value,
  min,
  max,
  onPick,
  testId,
}: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onPick: (day: string) => void;
  testId: string;
}) {
  return (
    <label className="analytics-field">
      <span>{label}</span>
      <input
        type="date"
        value={value}
        min={min}
        max={max}
        onChange={(e) => e.target.value && onPick(e.target.value)}
        data-testid={testId}
      />
    </label>
  );
}

/** A table of download counts: what each row counts (its header cell), then the count. */
function DownloadsTable({
  firstColumn,
  testId,
  children,
}: {
  firstColumn: string;
  testId?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('insights');
  return (
    <table className="analytics-table" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{firstColumn}</th>
          <th scope="col" className="num">
            {t('analytics.table.downloads')}
          </th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
