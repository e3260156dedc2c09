import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isCompareSlug, paths } from '@/app/paths';
import { ArrowRight } from '@/components/icons';
import { PageHeader } from '@/components/page-header';
import { MAPPED_REGIONS } from '@/components/region-pins';
import { COMPARISON_ROWS, COMPETITOR_NAMES } from '@/features/compare/compare-content';
import { formatBytes } from '@/lib/format';
import { usePageTitle } from '@/lib/use-page-title';

export function ComparePage() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const { slug: rawSlug } = useParams();
  // The loader already sent unknown slugs to /404/.
  const slug = isCompareSlug(rawSlug) ? rawSlug : 'wetransfer';
  usePageTitle(t(`compare.${slug}.title`));

  const cell = (row: (typeof COMPARISON_ROWS)[number]) => {
    const value = row.value;
    if ('bytes' in value) return formatBytes(value.bytes, lng);
    if ('days' in value) return t(value.key, { days: value.days });
    if ('count' in value) return t(value.key, { count: value.count });
    return t(value.key);
  };

  return (
    <div className="container">
      <PageHeader eyebrow={t('compare.eyebrow')} title={t(`compare.${slug}.title`)} lead={t(`compare.${slug}.intro`)} />

      {slug === 'china' && (
        <section className="section-tight">
          <h2>{t('compare.china.stepsTitle')}</h2>
          <ol className="steps steps-compact">
            {(['step1', 'step2', 'step3'] as const).map((step, index) => (
              <li key={step} className="step">
                <span className="step-number">{index + 1}</span>
                <p>{t(`compare.china.${step}`)}</p>
              </li>
            ))}
          </ol>
        </section>
      )}

      <section className="section-tight">
        <div className="table-wrap">
          <table className="data-table compare-table">
            <caption>{t('compare.table.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('compare.table.feature')}</th>
                <th scope="col" className="col-us">{t('common.appName')}</th>
                <th scope="col">{COMPETITOR_NAMES[slug]}</th>
              </tr>
            </thead>
            <tbody>
              {COMPARISON_ROWS.map((row) => (
                <tr key={row.id}>
                  <th scope="row">{t(`compare.table.${row.id}`)}</th>
                  <td className="col-us">{cell(row)}</td>
                  <td className="muted">{t('compare.table.notQuoted')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="table-note">{t('compare.table.footnote')}</p>
        </div>
      </section>

      {slug === 'china' && (
        <section className="section-tight">
          <div className="table-wrap">
            <table className="data-table">
              <caption>{t('compare.china.regionsTitle')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('compare.china.regionHeader')}</th>
                  <th scope="col">{t('compare.china.bestFor')}</th>
                </tr>
              </thead>
              <tbody>
                {MAPPED_REGIONS.map((region) => (
                  <tr key={region} className={region === 'hongkong' ? 'row-selected' : undefined}>
                    <th scope="row">{t(`regions.${region}`)}</th>
                    <td>{t(`compare.china.${region}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      <p className="center section-tight">
        <Link to={paths.pricing()} className="btn btn-primary btn-lg">
          {t('compare.cta')} <ArrowRight />
        </Link>
      </p>
    </div>
  );
}
