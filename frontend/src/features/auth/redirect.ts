/**
 * The login page's ?redirect=: only a path of this app is followed, never another origin
 * (an open redirect would let a phishing link borrow our login page).
 */
const BASE = 'https://app.invalid';
/** Pages that make no sense to return to after logging in. */
const NO_RETURN = ['/login', '/signup/login', '/register', '/updatepassword'];

export function safeRedirect(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const value = raw.trim();
  // Only absolute paths; '//host' and '/\host' are protocol-relative URLs to browsers.
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // Browsers drop tabs and newlines inside URLs, which would turn '/\t/evil.com' into '//evil.com'.
  if (/[\u0000-\u001f\u007f]/u.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  if (NO_RETURN.includes(url.pathname.replace(/\/+$/u, '') || '/')) return null;
  return url.pathname + url.search + url.hash;
}
