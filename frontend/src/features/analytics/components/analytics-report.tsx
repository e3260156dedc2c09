import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { dashPaths } from '@/app/dash-paths';
import type { AnalyticsInterval, AnalyticsResponse } from '@domain/dashboard-api';
import type { SeriesPoint } from '../series';
import { DownloadsChart } from './downloads-chart';
import { DownloadsTable } from './downloads-table';
import { WorldMap } from './world-map';

/** The figures of a range with downloads: totals, over time, by country and the top transfers. */
export function AnalyticsReport({
  data,
  series,
  interval,
  nameOf,
  bucketName,
  tickName,
  countName,
}: {
  data: AnalyticsResponse;
  series: readonly SeriesPoint[];
  interval: AnalyticsInterval;
  nameOf: (code: string) => string;
  bucketName: (start: string) => string;
  tickName: (start: string) => string;
  countName: (n: number) => string;
}) {
  const { t } = useTranslation('insights');
  return (
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
  );
}
