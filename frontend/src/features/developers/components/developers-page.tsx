import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { API_SCOPES, type ApiScope } from '@domain/api-key-scopes';
import { paths } from '@/app/paths';
import { LoadFailed } from '@/components/load-failed';
import { PageLoading } from '@/components/page-loading';
import { apiFetch } from '@/lib/api';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import {
  ERROR_EXAMPLE,
  KEY_ERROR_CODES,
  RATE_LIMIT,
  RATE_LIMIT_EXAMPLE,
  authExamples,
  sendExamples,
} from '../examples';
import { apiDocView, type ApiDocView, type FieldView, type OperationView } from '../openapi-view';
import { Code } from './code';
import { WebhooksSection } from './webhooks-section';
import '../developers.css';

/** Where every deployment serves its document (functions/routes.ts, GET /v1/openapi.json). */
export const OPENAPI_PATH = '/v1/openapi.json';

/** A scope's text key: i18next would read the colon of `transfers:read` as a namespace separator. */
const scopeKey = (scope: ApiScope) => (scope === 'transfers:read' ? 'transfers_read' : scope);

/** The deployment's document, read into what the reference shows. */
const fetchApiDoc = async (signal: AbortSignal) => apiDocView(await apiFetch<unknown>(OPENAPI_PATH, { signal }));

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

/** A tag's heading in the reader's language (the document's name for a tag the catalogues lack). */
function useTagName(): (name: string) => string {
  const { t, i18n } = useTranslation('api', { keyPrefix: 'docs.reference' });
  const text = t as unknown as (key: string) => string;
  return (name) => (i18n.exists(`docs.reference.tags.${name}`, { ns: 'api' }) ? text(`tags.${name}`) : name);
}

const anchorOf = (op: OperationView) =>
  `op-${op.method.toLowerCase()}${op.path.replace(/[^A-Za-z0-9]+/gu, '-')}`.replace(/-+$/u, '');

/** A link to an operation in the reference: its method and path. */
function OperationLink({ op }: { op: OperationView }) {
  return (
    <a href={`#${anchorOf(op)}`}>
      <span className={`dev-method dev-method-${op.method.toLowerCase()}`}>{op.method}</span> <code>{op.path}</code>
    </a>
  );
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

function Operation({ op }: { op: OperationView }) {
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
          <pre tabIndex={0}>
            <code>{JSON.stringify(op.example, null, 2)}</code>
          </pre>
        </details>
      )}
    </section>
  );
}

function Reference({ doc }: { doc: ApiDocView }) {
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

/**
 * /developers: how to use the public API v1 with a key (authentication, a whole send
 * with curl and TypeScript, errors, rate limits), then the reference, rendered from the OpenAPI
 * document this deployment serves at GET /api/v1/openapi.json.
 */
export function DevelopersPage() {
  const { t } = useTranslation('api', { keyPrefix: 'docs' });
  usePageTitle(t('title'));
  const load = useLoad(fetchApiDoc, []);

  // Until the document arrives, the examples use this origin's API.
  const api = load.state === 'ready' && load.data.serverUrl ? load.data.serverUrl : `${window.location.origin}/api`;
  const auth = authExamples(api);
  const send = sendExamples(api);

  return (
    <div className="container dev-page">
      <h1>{t('title')}</h1>
      <p className="lead muted">{t('lead')}</p>

      <section className="dev-section" aria-labelledby="dev-auth">
        <h2 id="dev-auth">{t('auth.title')}</h2>
        <p>
          {t('auth.keys')} <Link to={paths.apiKeys()}>{t('auth.keysLink')}</Link>
        </p>
        <p>{t('auth.header')}</p>
        <p>{t('auth.scopesLead')}</p>
        <ul className="dev-scopes" data-testid="dev-scopes">
          {API_SCOPES.map((s) => {
            const routes =
              load.state === 'ready'
                ? load.data.tags.flatMap((tag) => tag.operations.filter((op) => op.scope === s))
                : [];
            return (
              <li key={s} data-scope={s}>
                <code>{s}</code>: {t(`auth.scopes.${scopeKey(s)}`)}
                {routes.length > 0 && (
                  <ul className="dev-scope-routes" aria-label={t('auth.scopeRoutes', { scope: s })}>
                    {routes.map((op) => (
                      <li key={op.id} data-scope-operation={op.id}>
                        <OperationLink op={op} />
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            );
          })}
        </ul>
        <p>{t('auth.limits')}</p>
        <Code label="curl" code={auth.curl} testId="dev-auth-curl" />
        <Code label="TypeScript" code={auth.ts} testId="dev-auth-ts" />
      </section>

      <section className="dev-section" aria-labelledby="dev-send">
        <h2 id="dev-send">{t('send.title')}</h2>
        <ol>
          <li>{t('send.step1')}</li>
          <li>{t('send.step2')}</li>
          <li>{t('send.step3')}</li>
        </ol>
        <p>{t('send.resume')}</p>
        <Code label="curl" code={send.curl} testId="dev-send-curl" />
        <Code label="TypeScript" code={send.ts} testId="dev-send-ts" />
      </section>

      <section className="dev-section" aria-labelledby="dev-errors">
        <h2 id="dev-errors">{t('errorFormat.title')}</h2>
        <p>{t('errorFormat.lead')}</p>
        <Code label="HTTP" code={ERROR_EXAMPLE} />
        <dl className="dev-codes">
          {KEY_ERROR_CODES.map((code) => (
            <div key={code}>
              <dt>
                <code>{code}</code>
              </dt>
              <dd>{t(`errorFormat.codes.${code}`)}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="dev-section" aria-labelledby="dev-limits">
        <h2 id="dev-limits">{t('limits.title')}</h2>
        <p>{t('limits.lead', { requests: RATE_LIMIT.requests, seconds: RATE_LIMIT.windowSeconds })}</p>
        <Code label="HTTP" code={RATE_LIMIT_EXAMPLE} />
      </section>

      <WebhooksSection api={api} />

      {load.state === 'loading' ? (
        <PageLoading />
      ) : load.state === 'failed' ? (
        <LoadFailed text={t('loadFailed')} retryLabel={t('retry')} onRetry={load.reload} />
      ) : (
        <Reference doc={load.data} />
      )}
    </div>
  );
}
