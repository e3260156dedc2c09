/**
 * The API keys screen's calls (functions/domain/api-keys.ts; the Cognito session only, never a
 * key). Changes are not retried on 5xx: a key whose answer was lost may still have been made.
 */
import type { ApiKeysResponse, ApiScope, CreateApiKeyResponse } from '@domain/api-keys';
import { authedFetch } from '@/lib/session/session';

const once = { retries: 0 } as const;

export const fetchApiKeys = (signal?: AbortSignal) =>
  authedFetch<ApiKeysResponse>('/me/api-keys', signal ? { signal } : {});
export const createApiKey = (name: string, scopes: readonly ApiScope[]) =>
  authedFetch<CreateApiKeyResponse>('/me/api-keys', { method: 'POST', body: { name, scopes }, ...once });
export const revokeApiKey = (id: string) =>
  authedFetch<{ revoked: true }>(`/me/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE', ...once });
export const setMembersAllowed = (membersAllowed: boolean) =>
  authedFetch<{ membersAllowed: boolean }>('/teams/api-keys', { method: 'PUT', body: { membersAllowed }, ...once });
