import { useTranslation } from 'react-i18next';
import type { ApiKeyView } from '@domain/api-keys';
import { InlineConfirm, useInlineConfirm } from '@/components/inline-confirm';
import { useAction } from '@/lib/use-action';
import { revokeApiKey } from '../api-keys-api';
import { useWhen } from '../key-format';

/** One key's row: its revoke button asks inline (Revoke or Keep); focus moves to the answer and back. */
export function KeyRow({
  k,
  onRevoked,
  onError,
}: {
  k: ApiKeyView;
  onRevoked: (k: ApiKeyView) => void;
  onError: (text: string) => void;
}) {
  const { t } = useTranslation('api', { keyPrefix: 'keys' });
  const when = useWhen();
  const confirm = useInlineConfirm();
  const action = useAction();
  // the row goes once revoked, so it stays busy; a refusal is said under the list
  const revoke = () =>
    action.run(
      async () => {
        await revokeApiKey(k.id);
        onRevoked(k);
      },
      {
        onError: (_err, text) => {
          confirm.close();
          onError(text);
        },
      },
    );

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
            busy={action.busy}
            cancelWhileBusy={false}
            onConfirm={() => void revoke()}
            onCancel={confirm.close}
            testId="apikeys-confirm"
            confirmTestId="apikeys-revoke-confirm"
            cancelTestId="apikeys-revoke-cancel"
          />
        ) : (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            ref={confirm.triggerRef}
            aria-label={t('list.revokeNamed', { name: k.name })}
            onClick={confirm.ask}
            data-testid="apikeys-revoke"
          >
            {t('list.revoke')}
          </button>
        )}
      </td>
    </tr>
  );
}
