/**
 * The login page on a custom domain (spec §2 login "custom logo by domain"): the
 * domain owner's logo and company name from `GET /api/branding?host=`, asked only when the page
 * is not on one of the app's own hosts. Any failure (404 for hosts that are no one's) shows our own.
 */
import { useEffect, useState } from 'react';
import type { HostBranding } from '@domain/branding-api';
import { env } from '@/config/env';
import { apiFetch } from '@/lib/api';

/** Loopback and the app's own hosts never belong to a customer. */
export function isCustomHost(hostname: string, ownHosts: readonly string[] = []): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]' || /^\d{1,3}(?:\.\d{1,3}){3}$/u.test(host)) return false;
  return !ownHosts.some((own) => host === own || host.endsWith(`.${own}`));
}

export function useHostBranding(): HostBranding | null {
  const [branding, setBranding] = useState<HostBranding | null>(null);
  useEffect(() => {
    const host = window.location.hostname;
    if (
      !isCustomHost(
        host,
        env.appHosts
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean),
      )
    )
      return;
    let live = true;
    apiFetch<HostBranding>(`/branding?host=${encodeURIComponent(host)}`, { retries: 0 }).then(
      (b) => live && setBranding(b),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return branding;
}
