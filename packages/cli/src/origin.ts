/**
 * Which deployment the CLI talks to, and the rule that a key never travels in clear text:
 * plain http only to a loopback host (a local stack), https anywhere else.
 */
import { isIP } from 'node:net';
import { UsageError } from './errors';

export const DEFAULT_LOCAL_API_PORT = 3001;

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/gu, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.split('.')[0] === '127';
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./u.test(h);
  return false;
}

/**
 * Parses an `--api` value into an origin (`https://host[:port]`, no path). Refuses anything
 * but https, except http to loopback; refuses credentials in the URL.
 */
export function parseApiOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--api: not a URL: ${value}`);
  }
  if (url.username || url.password) throw new UsageError('--api: the URL must not carry a user name or password');
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) {
      throw new UsageError(
        `refusing plain http to ${url.hostname}: the API key would travel unencrypted; use https (http is allowed only for loopback hosts)`,
      );
    }
  } else if (url.protocol !== 'https:') {
    throw new UsageError(`--api: only https (or http to a loopback host) is supported, not ${url.protocol}`);
  }
  return url.origin;
}

/** `--api`, else SENDBRIDGE_API, else the saved login's, else the local stack on API_PORT. */
export function resolveApiOrigin(flag: string | undefined, env: NodeJS.ProcessEnv, saved: string | undefined): string {
  const chosen = flag ?? env.SENDBRIDGE_API ?? saved ?? `http://127.0.0.1:${env.API_PORT || DEFAULT_LOCAL_API_PORT}`;
  return parseApiOrigin(chosen);
}
