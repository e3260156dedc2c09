import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { HomeSupportActions } from '@/components/home-support-actions';
import { useNoIndex } from '@/lib/use-no-index';
import { usePageTitle } from '@/lib/use-page-title';

export function NotFoundPage() {
  const { t } = useTranslation();
  const path = useSearchParams()[0].get('path');
  usePageTitle(t('notFound.title'));
  useNoIndex();

  return (
    <section className="container narrow center-block not-found">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1>{t('notFound.heading')}</h1>
      <p className="lead">
        {path ? <WithPath text={t('notFound.path', { path: PATH_MARK })} path={path} /> : t('notFound.noPath')}
      </p>
      <p className="muted">{t('notFound.hint')}</p>
      <HomeSupportActions />
    </section>
  );
}

/** Stands in for {{path}} so the path can be set in <code> wherever a language places it. */
const PATH_MARK = '\u0000';

function WithPath({ text, path }: { text: string; path: string }) {
  const [before = '', after = ''] = text.split(PATH_MARK);
  return (
    <>
      {before}
      <code className="path">{path}</code>
      {after}
    </>
  );
}
