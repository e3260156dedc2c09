import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { API_KEY_NAME_MAX, API_SCOPES, type ApiScope } from '@domain/api-key-scopes';
import type { ApiKeyView, CreateApiKeyResponse } from '@domain/api-keys';
import { paths } from '@/app/paths';
import { InlineConfirm, useInlineConfirm } from '@/components/inline-confirm';
import { LoadFailed } from '@/components/load-failed';
import { PageLoading } from '@/components/page-loading';
import { TableHead } from '@/components/table-head';
import { errorTextOf } from '@/i18n/error-keys';
import { useSession } from '@/lib/session/session-provider';
import { accountMenuItems } from '@/lib/session/user-display';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import { createApiKey, fetchApiKeys, revokeApiKey, setMembersAllowed } from '../api-keys-api';
import '../api-keys.css';

/** A scope's text key: i18next would read the colon of `transfers:read` as a namespace separator. */
const scopeKey = (scope: ApiScope) => (scope === 'transfers:read' ? 'transfers_read' : scope);

/** A refusal in the user's language, from the API's stable code. */
function useErrorText() {
  const { t } = useTranslation();
  return (err: unknown) => {
    const text = errorTextOf(err);
    return t(text.key, text.params);
  };
}

function useWhen() {
  const { i18n } = useTranslation();
  return (ms: number) => new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}

/** Name and scopes of a new key. */
function CreateForm({ onCreated }: { onCreated: (key: CreateApiKeyResponse) => void }) {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const errorText = useErrorText();
  const ids = useId();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<ApiScope>>(new Set<ApiScope>(['send', 'transfers:read']));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  const toggle = (scope: ApiScope, on: boolean) =>
    setScopes((prev) => {
      const next = new Set(prev);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError(t('create.nameRequired'));
      nameRef.current?.focus();
      return;
    }
    if (scopes.size === 0) {
      setError(t('create.scopeRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const created = await createApiKey(name.trim(), API_SCOPES.filter((s) => scopes.has(s)));
      setName('');
      onCreated(created);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card ak-create" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${ids}-title`} data-testid="apikeys-create-form">
      <h2 id={`${ids}-title`}>{t('create.title')}</h2>
      <div className="ak-field">
        <label htmlFor={`${ids}-name`} className="dash-label">
          {t('create.name')}
        </label>
        <input
          id={`${ids}-name`}
          ref={nameRef}
          className="dash-input"
          type="text"
          autoComplete="off"
          maxLength={API_KEY_NAME_MAX}
          placeholder={t('create.namePlaceholder')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          data-testid="apikeys-name"
        />
      </div>
      <fieldset className="ak-scopes">
        <legend className="dash-label">{t('create.scopes')}</legend>
        {API_SCOPES.map((scope) => (
          <label key={scope} className="ak-scope">
            <input type="checkbox" checked={scopes.has(scope)} onChange={(e) => toggle(scope, e.currentTarget.checked)} data-testid={`apikeys-scope-${scope}`} />
            <span>
              <code>{scope}</code> <span className="ak-scope-text">{t(`scopes.${scopeKey(scope)}`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <button type="submit" className="btn btn-primary" disabled={busy} data-testid="apikeys-create">
        {busy ? t('create.creating') : t('create.submit')}
      </button>
      <p className="dash-error" role="alert" data-testid="apikeys-create-error">
        {error ?? ''}
      </p>
    </form>
  );
}

/** The whole key, this once: copy it, then it is gone. Focus lands on its heading. */
function NewKey({ created, onDone }: { created: CreateApiKeyResponse; onDone: () => void }) {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const ids = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => headingRef.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      // Clipboard refused (permissions): the key stays selectable on the page.
    }
  };
  return (
    <section className="card ak-new" aria-labelledby={`${ids}-title`} data-testid="apikeys-new">
      <h2 id={`${ids}-title`} ref={headingRef} tabIndex={-1}>
        {t('new.title', { name: created.name })}
      </h2>
      <p className="ak-warning">
        <strong>{t('new.once')}</strong> {t('new.store')}
      </p>
      <div className="ak-secret-row">
        <code className="ak-secret" data-testid="apikeys-secret">
          {created.key}
        </code>
        <button type="button" className="btn btn-primary btn-sm" onClick={() => void copy()} data-testid="apikeys-copy">
          {copied ? t('new.copied') : t('new.copy')}
        </button>
      </div>
      <p className="sr-only" role="status">
        {copied ? t('new.copied') : ''}
      </p>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onDone} data-testid="apikeys-new-done">
        {t('new.done')}
      </button>
    </section>
  );
}

/** One key's row: its revoke button asks inline (Revoke or Keep); focus moves to the answer and back. */
function KeyRow({ k, onRevoked, onError }: { k: ApiKeyView; onRevoked: (k: ApiKeyView) => void; onError: (text: string) => void }) {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const errorText = useErrorText();
  const when = useWhen();
  const confirm = useInlineConfirm();
  const [busy, setBusy] = useState(false);

  const revoke = async () => {
    setBusy(true);
    try {
      await revokeApiKey(k.id);
      onRevoked(k);
    } catch (err) {
      setBusy(false);
      confirm.close();
      onError(errorText(err));
    }
  };

  return (
    <tr data-testid="apikeys-row" data-key-id={k.id}>
      <th scope="row">{k.name}</th>
      <td>
        <code data-testid="apikeys-hint">{k.hint}</code>
      </td>
      <td>
        <ul className="ak-scope-list">
          {k.scopes.map((s) => (
            <li key={s}>
              <code>{s}</code>
            </li>
          ))}
        </ul>
      </td>
      <td>{when(k.createdAt)}</td>
      <td data-testid="apikeys-last-used">{k.lastUsedAt !== undefined ? when(k.lastUsedAt) : t('list.never')}</td>
      <td>
        {confirm.open ? (
          <InlineConfirm
            className="ak-confirm"
            small
            confirmClassName="btn btn-sm ak-danger"
            question={t('list.revokeConfirm', { name: k.name })}
            confirmLabel={t('list.revoke')}
            cancelLabel={t('list.keep')}
            busy={busy}
            cancelWhileBusy={false}
            onConfirm={() => void revoke()}
            onCancel={confirm.close}
            testId="apikeys-confirm"
            confirmTestId="apikeys-revoke-confirm"
            cancelTestId="apikeys-revoke-cancel"
          />
        ) : (
          <button type="button" className="btn btn-ghost btn-sm" ref={confirm.triggerRef} aria-label={t('list.revokeNamed', { name: k.name })} onClick={confirm.ask} data-testid="apikeys-revoke">
            {t('list.revoke')}
          </button>
        )}
      </td>
    </tr>
  );
}

function KeyList({ keys, onRevoked }: { keys: readonly ApiKeyView[]; onRevoked: (k: ApiKeyView) => void }) {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const ids = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  return (
    <section className="card" aria-labelledby={`${ids}-title`} data-testid="apikeys-list">
      <h2 id={`${ids}-title`} ref={headingRef} tabIndex={-1}>
        {t('list.title')}
      </h2>
      {keys.length === 0 ? (
        <p className="muted" data-testid="apikeys-empty">
          {t('list.empty')}
        </p>
      ) : (
        <div className="ak-table-wrap">
          <table className="ak-table">
            <TableHead columns={[t('list.name'), t('list.key'), t('list.scopes'), t('list.created'), t('list.lastUsed'), <span className="sr-only">{t('list.actions')}</span>]} />
            <tbody>
              {keys.map((k) => (
                <KeyRow
                  key={k.id}
                  k={k}
                  onRevoked={(gone) => {
                    setNotice({ kind: 'ok', text: t('list.revoked', { name: gone.name }) });
                    onRevoked(gone);
                    // the row and its buttons are gone: focus goes to the list's heading
                    headingRef.current?.focus();
                  }}
                  onError={(text) => setNotice({ kind: 'error', text })}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className={notice?.kind === 'error' ? 'dash-error' : 'ak-notice'} role="status" data-testid="apikeys-notice">
        {notice?.text ?? ''}
      </p>
    </section>
  );
}

/** A team admin's setting: whether the team's members may create and use keys. */
function MembersSetting({ allowed, onChange }: { allowed: boolean; onChange: (allowed: boolean) => void }) {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const errorText = useErrorText();
  const ids = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const change = async (next: boolean) => {
    setBusy(true);
    setError(null);
    try {
      onChange((await setMembersAllowed(next)).membersAllowed);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby={`${ids}-title`} data-testid="apikeys-team">
      <h2 id={`${ids}-title`}>{t('team.title')}</h2>
      <label className="ak-toggle">
        <input type="checkbox" checked={allowed} disabled={busy} onChange={(e) => void change(e.currentTarget.checked)} data-testid="apikeys-members-allowed" />
        <span>{t('team.allow')}</span>
      </label>
      <p className="dash-hint">{allowed ? t('team.onHint') : t('team.offHint')}</p>
      <p className="dash-error" role="alert">
        {error ?? ''}
      </p>
    </section>
  );
}

/**
 * /dash/account/api-keys: create a named key with scopes (its secret shown once),
 * see every key's first characters, scopes, creation and last use, revoke one. A team member
 * whose admin has not allowed keys is refused here (and the API refuses them alike); a team
 * admin also decides whether members may use keys.
 */
export function ApiKeysPage() {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const { user } = useSession();
  usePageTitle(t('title'));
  const [created, setCreated] = useState<CreateApiKeyResponse | null>(null);
  // the account menu's rule: everyone but a team member whose admin has not allowed keys
  const permitted = user !== null && accountMenuItems(user).includes('apiKeys');
  const load = useLoad(fetchApiKeys, [], { enabled: permitted });

  if (!user) return <PageLoading />;
  const refused = !permitted || (load.state === 'ready' && !load.data.allowed);
  const update = load.setData;

  return (
    <div className="container dash-page ak-page">
      <h1>{t('title')}</h1>
      <p className="lead muted">
        {t('lead')} <Link to={paths.developers()}>{t('docsLink')}</Link>
      </p>
      {refused ? (
        <p className="card" role="alert" data-testid="apikeys-refused">
          {t('refused')}
        </p>
      ) : load.state === 'loading' ? (
        <PageLoading />
      ) : load.state === 'failed' ? (
        <LoadFailed text={t('loadFailed')} retryLabel={t('retry')} onRetry={load.reload} />
      ) : (
        <>
          {created && <NewKey key={created.id} created={created} onDone={() => setCreated(null)} />}
          <CreateForm
            onCreated={(key) => {
              setCreated(key);
              const { key: _secret, ...view } = key;
              update((d) => ({ ...d, keys: [view, ...d.keys] }));
            }}
          />
          <KeyList keys={load.data.keys} onRevoked={(gone) => update((d) => ({ ...d, keys: d.keys.filter((k) => k.id !== gone.id) }))} />
          {load.data.membersAllowed !== undefined && <MembersSetting allowed={load.data.membersAllowed} onChange={(membersAllowed) => update((d) => ({ ...d, membersAllowed }))} />}
        </>
      )}
    </div>
  );
}
