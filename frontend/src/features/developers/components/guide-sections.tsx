import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { API_SCOPES, type ApiScope } from '@domain/api-key-scopes';
import { paths } from '@/app/paths';
import {
  ERROR_EXAMPLE,
  KEY_ERROR_CODES,
  RATE_LIMIT,
  RATE_LIMIT_EXAMPLE,
  authExamples,
  sendExamples,
} from '../examples';
import type { ApiDocView } from '../openapi-view';
import { Code } from './code';
import { OperationLink } from './operation-link';

/** A scope's text key: i18next would read the colon of `transfers:read` as a namespace separator. */
const scopeKey = (scope: ApiScope) => (scope === 'transfers:read' ? 'transfers_read' : scope);

/** Authentication: keys, the header, the scopes with the routes each allows (once the document is here). */
export function AuthSection({ api, doc }: { api: string; doc: ApiDocView | null }) {
  const { t } = useTranslation('api', { keyPrefix: 'docs' });
  const auth = authExamples(api);
  return (
    <section className="dev-section" aria-labelledby="dev-auth">
      <h2 id="dev-auth">{t('auth.title')}</h2>
      <p>
        {t('auth.keys')} <Link to={paths.apiKeys()}>{t('auth.keysLink')}</Link>
      </p>
      <p>{t('auth.header')}</p>
      <p>{t('auth.scopesLead')}</p>
      <ul className="dev-scopes" data-testid="dev-scopes">
        {API_SCOPES.map((s) => {
          const routes = doc ? doc.tags.flatMap((tag) => tag.operations.filter((op) => op.scope === s)) : [];
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
  );
}

/** A whole send in three steps, with curl and TypeScript. */
export function SendSection({ api }: { api: string }) {
  const { t } = useTranslation('api', { keyPrefix: 'docs' });
  const send = sendExamples(api);
  return (
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
  );
}

/** The error format and the codes a key's caller meets. */
export function ErrorsSection() {
  const { t } = useTranslation('api', { keyPrefix: 'docs' });
  return (
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
  );
}

/** The rate limit and the answer past it. */
export function LimitsSection() {
  const { t } = useTranslation('api', { keyPrefix: 'docs' });
  return (
    <section className="dev-section" aria-labelledby="dev-limits">
      <h2 id="dev-limits">{t('limits.title')}</h2>
      <p>{t('limits.lead', { requests: RATE_LIMIT.requests, seconds: RATE_LIMIT.windowSeconds })}</p>
      <Code label="HTTP" code={RATE_LIMIT_EXAMPLE} />
    </section>
  );
}
