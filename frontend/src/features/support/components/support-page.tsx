import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { PageHeader } from '@/components/page-header';
import { company } from '@/config/company';
import { SUPPORT_ARTICLES, isSupportArticle, type SupportArticleId } from '@/features/support/support-articles';
import { usePageTitle } from '@/lib/use-page-title';

/** Values article texts may use: the legal articles name the configured support address. */
const bodyValues = { email: company.supportEmail };

function Paragraphs({ text }: { text: string }) {
  return text.split('\n\n').map((paragraph) => <p key={paragraph}>{paragraph}</p>);
}

export function SupportPage() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const requested = searchParams.get('article');
  // An unknown article id shows the full list rather than an empty page.
  const article: SupportArticleId | undefined = isSupportArticle(requested) ? requested : undefined;
  usePageTitle(article ? t(`support.items.${article}.title`) : t('support.title'));

  return (
    <div className="container">
      <PageHeader title={t('support.title')} lead={t('support.subtitle')} />
      <div className="support-layout">
        <nav className="support-nav" aria-label={t('support.articles')}>
          <h2>{t('support.articles')}</h2>
          <ul>
            {SUPPORT_ARTICLES.map((id) => (
              <li key={id}>
                <Link to={paths.support({ article: id })} aria-current={id === article ? 'page' : undefined}>
                  {t(`support.items.${id}.title`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div className="support-main">
          {article ? (
            <article className="card article">
              <h2>{t(`support.items.${article}.title`)}</h2>
              <Paragraphs text={t(`support.items.${article}.body`, bodyValues)} />
            </article>
          ) : (
            <div className="faq">
              {SUPPORT_ARTICLES.map((id) => (
                <article key={id} className="card article-summary">
                  <h2>
                    <Link to={paths.support({ article: id })}>{t(`support.items.${id}.title`)}</Link>
                  </h2>
                  <p>{t(`support.items.${id}.body`, bodyValues).split('\n\n')[0]}</p>
                </article>
              ))}
            </div>
          )}

          <aside className="callout">
            <h2>{t('support.contactTitle')}</h2>
            <p>
              {t('support.contactBody')} <a href={`mailto:${company.supportEmail}`}>{company.supportEmail}</a>
            </p>
          </aside>
        </div>
      </div>
    </div>
  );
}
