import { useTranslation } from 'react-i18next';
import type { ApiDocView } from '../openapi-view';
import { OPENAPI_PATH } from '../openapi-path';
import { Operation } from './operation';
import { OperationLink } from './operation-link';

/** A tag's heading in the reader's language (the document's name for a tag the catalogues lack). */
function useTagName(): (name: string) => string {
  const { t, i18n } = useTranslation('api', { keyPrefix: 'docs.reference' });
  const text = t as unknown as (key: string) => string;
  return (name) => (i18n.exists(`docs.reference.tags.${name}`, { ns: 'api' }) ? text(`tags.${name}`) : name);
}

/** The reference: the index of every operation, then the operations by tag. */
export function Reference({ doc }: { doc: ApiDocView }) {
  const { t } = useTranslation('api', { keyPrefix: 'docs' });
  const tagName = useTagName();
  return (
    <section className="dev-section" aria-labelledby="dev-reference" data-testid="dev-reference">
      <h2 id="dev-reference">{t('reference.title')}</h2>
      <p>
        {t('reference.lead', { title: doc.title, version: doc.version })}{' '}
        <a href={`/api${OPENAPI_PATH}`} data-testid="dev-openapi-link">
          {t('reference.raw')}
        </a>
      </p>
      <nav aria-label={t('reference.index')} className="dev-index">
        <ul>
          {doc.tags.flatMap((tag) =>
            tag.operations.map((op) => (
              <li key={op.id}>
                <OperationLink op={op} />
              </li>
            )),
          )}
        </ul>
      </nav>
      {doc.tags.map((tag) => (
        <section key={tag.name} className="dev-tag" aria-labelledby={`dev-tag-${tag.name}`}>
          <h3 id={`dev-tag-${tag.name}`}>{tagName(tag.name)}</h3>
          {tag.operations.map((op) => (
            <Operation key={op.id} op={op} />
          ))}
        </section>
      ))}
    </section>
  );
}
