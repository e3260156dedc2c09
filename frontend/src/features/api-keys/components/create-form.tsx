import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { API_KEY_NAME_MAX, API_SCOPES, type ApiScope } from '@domain/api-key-scopes';
import type { CreateApiKeyResponse } from '@domain/api-keys';
import { useAction } from '@/lib/use-action';
import { createApiKey } from '../api-keys-api';
import { scopeKey } from '../key-format';

/** Name and scopes of a new key. */
export function CreateForm({ onCreated }: { onCreated: (key: CreateApiKeyResponse) => void }) {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const ids = useId();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<ApiScope>>(new Set<ApiScope>(['send', 'transfers:read']));
  const action = useAction();
  const nameRef = useRef<HTMLInputElement>(null);

  const toggle = (scope: ApiScope, on: boolean) =>
    setScopes((prev) => {
      const next = new Set(prev);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      action.setError(t('create.nameRequired'));
      nameRef.current?.focus();
      return;
    }
    if (scopes.size === 0) {
      action.setError(t('create.scopeRequired'));
      return;
    }
    void action.run(async () => {
      const created = await createApiKey(
        name.trim(),
        API_SCOPES.filter((s) => scopes.has(s)),
      );
      setName('');
      onCreated(created);
    });
  };

  return (
    <form
      className="card ak-create"
      onSubmit={submit}
      noValidate
      aria-labelledby={`${ids}-title`}
      data-testid="apikeys-create-form"
    >
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
            <input
              type="checkbox"
              checked={scopes.has(scope)}
              onChange={(e) => toggle(scope, e.currentTarget.checked)}
              data-testid={`apikeys-scope-${scope}`}
            />
            <span>
              <code>{scope}</code> <span className="ak-scope-text">{t(`scopes.${scopeKey(scope)}`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <button type="submit" className="btn btn-primary" disabled={action.busy} data-testid="apikeys-create">
        {action.busy ? t('create.creating') : t('create.submit')}
      </button>
      <p className="dash-error" role="alert" data-testid="apikeys-create-error">
        {action.error ?? ''}
      </p>
    </form>
  );
}
