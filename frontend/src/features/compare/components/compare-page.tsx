import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isCompareSlug, paths } from '@/app/paths';
import { ArrowRight } from '@/components/icons';
import { PageHeader } from '@/components/page-header';
import { MAPPED_REGIONS } from '@/components/region-pins';
import { COMPARISON_ROWS, type OurValue } from '@/features/compare/compare-content';
import { CHECKED_ON, COMPETITORS, competitorSources, type Figure } from '@/features/compare/competitors';
import { formatBytes } from '@/lib/format';
import { usePageTitle } from '@/lib/use-page-title';

export function ComparePage() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const { slug: rawSlug } = useParams();
  // The loader already sent unknown slugs to /404/.
  const slug = isCompareSlug(rawSlug) ? rawSlug : 'wetransfer';
  usePageTitle(t(`compare.${slug}.title`));

  const ours = (value: OurValue) => {
    if ('bytes' in value) return formatBytes(value.bytes, lng);
    if (value.days !== undefined) return t(value.key, { days: value.days });
    if (value.count !== undefined) return t(value.key, { count: value.count });
    return t(value.key);
  };
  const theirs = (figure: Figure) => {
    switch (figure.kind) {
      case 'bytes':
        return formatBytes(figure.bytes, lng);
      case 'noSizeLimit':
        return t('comparison.table.noSizeLimit');
      case 'daysDefaultMax':
        return t('comparison.table.daysDefaultMax', { days: figure.days, max: figure.max });
      default:
        return t('comparison.table.notPublished');
    }
  };
  const checked = new Intl.DateTimeFormat(lng, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${CHECKED_ON}T00:00:00Z`),
  );

  return (
    <div className="container">
      <PageHeader
        eyebrow={t('comparison.eyebrow')}
        title={t(`compare.${slug}.title`)}
        lead={t(`comparison.${slug}.intro`)}
      />

      {slug === 'china' && (
        <section className="section-tight">
          <h2>{t('comparison.china.stepsTitle')}</h2>
          <ol className="steps steps-compact">
            {(['step1', 'step2', 'step3'] as const).map((step, index) => (
              <li key={step} className="step">
                <span className="step-number">{index + 1}</span>
                <p>{t(`comparison.china.${step}`)}</p>
              </li>
            ))}
          </ol>
        </section>
      )}

      <section className="section-tight">
        <div className="table-wrap">
          <table className="data-table compare-table">
            <caption>{t('comparison.table.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('comparison.table.feature')}</th>
                <th scope="col" className="col-us">
                  {t('comparison.table.claimColumn')}
                </th>
                <th scope="col" className="col-us">
                  {t('comparison.table.planColumn')}
                </th>
                {COMPETITORS.map((c) => (
                  <th key={c.id} scope="col">
                    {c.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {COMPARISON_ROWS.map((row) => (
                <tr key={row.id}>
                  <th scope="row">{t(`comparison.table.${row.id}`)}</th>
                  <td className="col-us">{ours(row.claim)}</td>
                  <td className="col-us">{ours(row.planTable)}</td>
                  {COMPETITORS.map((c) => (
                    <td key={c.id} className={c.figures[row.id].kind === 'notPublished' ? 'muted' : undefined}>
                      {theirs(c.figures[row.id])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <p className="table-note">{t('comparison.table.readings')}</p>
          <p className="table-note compare-checked">{t('comparison.table.checked', { date: checked })}</p>
          <ul className="table-note compare-sources" aria-label={t('comparison.table.sources')}>
            {competitorSources().map(({ competitor, url }) => (
              <li key={url}>
                {competitor}:{' '}
                <a href={url} rel="noopener noreferrer" target="_blank" className="text-link">
                  {new URL(url).hostname}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {slug === 'china' && (
        <section className="section-tight">
          <div className="table-wrap">
            <table className="data-table">
              <caption>{t('comparison.china.regionsTitle')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('comparison.china.regionHeader')}</th>
                  <th scope="col">{t('comparison.china.bestFor')}</th>
                </tr>
              </thead>
              <tbody>
                {MAPPED_REGIONS.map((region) => (
                  <tr key={region} className={region === 'hongkong' ? 'row-selected' : undefined}>
                    <th scope="row">{t(`regions.${region}`)}</th>
                    <td>{t(`comparison.china.${region}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      <p className="center section-tight">
        <Link to={paths.pricing()} className="btn btn-primary btn-lg">
          {t('comparison.cta')} <ArrowRight />
        </Link>
      </p>
    </div>
  );
}
