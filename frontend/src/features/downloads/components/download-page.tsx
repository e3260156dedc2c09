import { useState } from 'react';
import type { PublicBranding } from '@domain/branding-api';
import { useLoaderData, useLocation } from 'react-router';
import type { downloadLoader } from '@/features/downloads/download-loader';
import { useNoIndex } from '@/lib/use-no-index';
import { brandStyle } from './brand-style';
import { DownloadScreen } from './download-screen';
import { PoweredBy } from './powered-by';
import '@/features/downloads/components/download-page.css';

/** /downloads/{id}/{user?}/{downloadZip?}, /d/{id}/{user?} and /w/{slug} (spec §2). */
export function DownloadPage() {
  const { route, result } = useLoaderData<typeof downloadLoader>();
  const { pathname } = useLocation();
  // Download pages are private to their link holders: keep them out of search engines.
  useNoIndex();
  // the sender's branding, from the first answer or the one after unlocking.
  const [brandOf, setBranding] = useState<{ path: string; branding: PublicBranding | null | undefined }>({
    path: '',
    branding: undefined,
  });
  const branding =
    brandOf.path === pathname ? brandOf.branding : result.kind === 'ready' ? result.view.branding : undefined;
  const page = (
    <section className="container narrow download-page">
      {branding?.logoUrl && (
        <img className="download-brand-logo" src={branding.logoUrl} alt="" data-testid="download-brand-logo" />
      )}
      {/* A new address is a new transfer: start over rather than carry a password across. */}
      <DownloadScreen
        key={pathname}
        route={route}
        initial={result}
        onView={(view) => setBranding({ path: pathname, branding: view.branding })}
      />
      {branding?.showPoweredBy !== false && (
        <p className="download-powered" data-testid="download-powered-by">
          <PoweredBy />
        </p>
      )}
    </section>
  );
  // One wrapper whether branded or not: branding that arrives with the unlocked view must not
  // remount the screen (that dropped the unlock and showed the password form again).
  return (
    <div
      className={branding ? 'download-branded' : undefined}
      style={branding ? brandStyle(branding) : undefined}
      data-testid={branding ? 'download-branded' : undefined}
    >
      {page}
    </div>
  );
}
