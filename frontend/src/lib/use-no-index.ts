import { useEffect } from 'react';

/**
 * `<meta name="robots" content="noindex">` in <head> while the screen is mounted (private or
 * error pages stay out of search engines). A hook, not a `<meta>` in the JSX: React 19 hoisted
 * such a tag into <head>, Preact (what the app runs on) renders it where it stands.
 */
export function useNoIndex(): void {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}
