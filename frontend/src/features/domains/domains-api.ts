/** The domain settings page's calls (functions/domain/domains-api.ts). */
import type { DomainSettings } from '@domain/domains-api';
import { authedFetch } from '@/lib/session/session';

export const fetchDomainSettings = (signal?: AbortSignal) =>
  authedFetch<DomainSettings>('/domains', { ...(signal ? { signal } : {}) });
export const addCustomDomain = (domain: string) =>
  authedFetch<DomainSettings>('/domains/custom', { method: 'PUT', body: { domain } });
export const checkCustomDomain = () => authedFetch<DomainSettings>('/domains/custom/check', { method: 'POST' });
export const removeCustomDomain = () => authedFetch<DomainSettings>('/domains/custom', { method: 'DELETE' });
export const addEmailDomain = (domain: string) =>
  authedFetch<DomainSettings>('/domains/email', { method: 'PUT', body: { domain } });
export const checkEmailDomain = () => authedFetch<DomainSettings>('/domains/email/check', { method: 'POST' });
export const removeEmailDomain = () => authedFetch<DomainSettings>('/domains/email', { method: 'DELETE' });

/** How often the page asks for a pending sender domain's DKIM status while it is open and visible. */
export const EMAIL_POLL_MS = 20_000;
