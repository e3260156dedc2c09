import { useTranslation } from 'react-i18next';
import type { FieldView, OperationView } from '../openapi-view';
import { anchorOf } from './operation-link';

/**
 * An operation's summary and description in the reader's language: the `api` catalogues hold
 * them by operationId (`docs.reference.operations.<id>`); one the catalogues do not know yet (a
 * route newer than this build) shows the document's English.
 */
function useOperationText(): (op: OperationView, field: 'summary' | 'description') => string {
  const { t, i18n } = useTranslation('api', { keyPrefix: 'docs.reference' });
  const text = t as unknown as (key: string) => string;
  return (op, field) => {
    const key = `operations.${op.operationId ?? ''}.${field}`;
    return op.operationId && i18n.exists(`docs.reference.${key}`, { ns: 'api' }) ? text(key) : op[field];
  };
}

/** A table of fields; an answer's (read from its example) has no Required column. */
function Fields({
  caption,
  fields,
  showIn,
  answer,
}: {
  caption: string;
  fields: readonly FieldView[];
  showIn?: boolean;
  answer?: boolean;
}) {
  const { t } = useTranslation('api', { keyPrefix: 'docs' });
  if (fields.length === 0) return null;
  return (
    <div className="dev-table-wrap">
      <table className="dev-fields">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('reference.field')}</th>
            {showIn && <th scope="col">{t('reference.in')}</th>}
            <th scope="col">{t('reference.type')}</th>
            {!answer && <th scope="col">{t('reference.required')}</th>}
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => (
            <tr key={`${f.in ?? ''}${f.name}`}>
              <th scope="row">
                <code>{f.name}</code>
              </th>
              {showIn && <td>{f.in}</td>}
              <td>
                <code>{f.type}</code>
              </td>
              {!answer && <td>{f.required ? t('reference.yes') : t('reference.no')}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One operation of the reference: method, path, summary, scope, fields and example. */
export function Operation({ op }: { op: OperationView }) {
  const { t } = useTranslation('api', { keyPrefix: 'docs' });
  const textOf = useOperationText();
  return (
    <section
      className="dev-op"
      id={anchorOf(op)}
      aria-labelledby={`${anchorOf(op)}-h`}
      data-testid="dev-operation"
      data-operation={op.id}
    >
      <h4 id={`${anchorOf(op)}-h`}>
        <span className={`dev-method dev-method-${op.method.toLowerCase()}`}>{op.method}</span>{' '}
        <code className="dev-path">{op.path}</code>
      </h4>
      <p className="dev-summary">
        <strong>{textOf(op, 'summary')}</strong>
        {op.scope && (
          <span className="dev-scope">
            {t('reference.scope')} <code>{op.scope}</code>
          </span>
        )}
      </p>
      <p>{textOf(op, 'description')}</p>
      <Fields caption={t('reference.parameters')} fields={op.parameters} showIn />
      <Fields caption={t('reference.body')} fields={op.body} />
      <Fields caption={t('reference.response', { status: op.status })} fields={op.response} answer />
      {op.example !== undefined && (
        <details className="dev-example">
          <summary>{t('reference.example', { status: op.status })}</summary>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the example may scroll sideways, so the keyboard must reach it (axe: scrollable-region-focusable) */}
          <pre tabIndex={0}>
            <code>{JSON.stringify(op.example, null, 2)}</code>
          </pre>
        </details>
      )}
    </section>
  );
}
