/**
 * The only reader of import.meta.env (conventions 6). Values are checked once at start-up;
 * a malformed one throws with its name instead of surfacing later as a broken screen.
 */

const NAMES = {
  apiBase: 'VITE_API_BASE',
  supportEmail: 'VITE_SUPPORT_EMAIL',
  /** the app's own host names (comma-separated); any other host may be a customer's custom domain */
  appHosts: 'VITE_APP_HOSTS',
} as const;

function read(name: string): string | undefined {
  const value: unknown = import.meta.env[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new Error(`${name} must be a string`);
  return value.trim();
}

function apiBase(): string {
  // Same origin by default: CloudFront (AWS) and the Vite proxy (local) route /api.
  const value = read(NAMES.apiBase) ?? '/api';
  if (!value.startsWith('/') && !/^https?:\/\//.test(value))
    throw new Error(`${NAMES.apiBase} must be a path or an http(s) URL: ${value}`);
  return value.replace(/\/+$/, '');
}

function supportEmail(): string {
  const value = read(NAMES.supportEmail) ?? 'support@sendbridge.app';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))
    throw new Error(`${NAMES.supportEmail} is not an email address: ${value}`);
  return value;
}

export const env = Object.freeze({
  apiBase: apiBase(),
  supportEmail: supportEmail(),
  /** comma-separated; parsed where used (features/auth/host-branding.ts), off the first load */
  appHosts: read(NAMES.appHosts) ?? '',
  dev: import.meta.env.DEV,
  mode: import.meta.env.MODE,
});
