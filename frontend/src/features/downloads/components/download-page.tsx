import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLoaderData, useLocation } from 'react-router';
import { paths } from '@/app/paths';
import { HomeSupportActions } from '@/components/home-support-actions';
import { company } from '@/config/company';
import { fetchDownload, type DownloadAccess } from '@/features/downloads/api/download-api';
import { downloadFailureOf, type DownloadFailure } from '@/features/downloads/download-failure';
import type { DownloadResult, downloadLoader } from '@/features/downloads/download-loader';
import type { DownloadRoute } from '@/features/downloads/download-route';
import { AlertIcon, LinkOffIcon } from '@/features/downloads/components/download-icons';
import { ExpiredPanel } from '@/features/downloads/components/expired-panel';
import { PasswordPanel } from '@/features/downloads/components/password-panel';
import { TransferView } from '@/features/downloads/components/transfer-view';
import { transferTitle } from '@/features/downloads/transfer-title';
import { useNoIndex } from '@/lib/use-no-index';
import { usePageTitle } from '@/lib/use-page-title';
import '@/features/downloads/components/download-page.css';

/** /downloads/{id}/{user?}/{downloadZip?}, /d/{id}/{user?} and /w/{slug} (spec §2). */
export function DownloadPage() {
  const { route, result } = useLoaderData<typeof downloadLoader>();
  const { pathname } = useLocation();
  // Download pages are private to their link holders: keep them out of search engines.
  useNoIndex();
  return (
    <section className="container narrow download-page">
      {/* A new address is a new transfer: start over rather than carry a password across. */}
      <DownloadScreen key={pathname} route={route} initial={result} />
      <p className="download-powered">
        <PoweredBy />
      </p>
    </section>
  );
}

/**
 * 'Powered by <brand>{{name}}</brand>' with the brand linked home. Split by hand rather than
 * with react-i18next's <Trans>, which would add ~5 KiB to the page's first load for one link.
 */
function PoweredBy() {
  const { t } = useTranslation();
  const text = t('download.poweredBy', { name: company.name });
  const parts = /^([\s\S]*)<brand>([\s\S]*)<\/brand>([\s\S]*)$/u.exec(text);
  if (!parts) return <>{text}</>;
  return (
    <>
      {parts[1]}
      <Link to={paths.home()}>{parts[2]}</Link>
      {parts[3]}
    </>
  );
}

function DownloadScreen({ route, initial }: { route: DownloadRoute; initial: DownloadResult }) {
  const { t } = useTranslation();
  const [result, setResult] = useState<DownloadResult>(initial);
  // The password lives only in memory, for the file and ZIP calls after unlocking.
  const password = useRef<string | undefined>(undefined);
  // The emailed "Download all" link starts the ZIP once, even across a lock and unlock.
  const [autoZipPending, setAutoZipPending] = useState(route.autoZip);
  usePageTitle(result.kind === 'ready' ? transferTitle(result.view, t) : t('download.pageTitle'));

  const id = route.id;
  const access = (): DownloadAccess => ({ id: id ?? '', password: password.current, recipient: route.recipient });

  async function unlock(candidate: string): Promise<DownloadFailure | null> {
    try {
      const view = await fetchDownload({ ...access(), password: candidate });
      password.current = candidate;
      setResult({ kind: 'ready', view });
      return null;
    } catch (error) {
      const failure = downloadFailureOf(error);
      if (failure.kind === 'notFound' || failure.kind === 'expired') setResult(failure);
      return failure;
    }
  }

  function fail(failure: DownloadFailure) {
    // A 401 after unlocking means the password no longer holds; ask for it again.
    if (failure.kind === 'locked') password.current = undefined;
    setResult(failure);
  }

  switch (result.kind) {
    case 'ready':
      return (
        <TransferView
          view={result.view}
          access={access}
          autoZip={autoZipPending}
          onAutoZipDone={() => setAutoZipPending(false)}
          onFailure={fail}
        />
      );
    case 'locked':
      return <PasswordPanel initialWrong={result.wrong} onUnlock={unlock} />;
    case 'expired':
      return <ExpiredPanel id={id ?? ''} expiryDate={result.expiryDate} extendable={result.extendable} />;
    case 'notFound':
      return (
        <div className="download-card download-state">
          <span className="download-state-icon" aria-hidden="true">
            <LinkOffIcon width={28} height={28} />
          </span>
          <h1 className="download-state-title" data-testid="download-not-found">
            {t('download.notFound')}
          </h1>
          <HomeSupportActions />
        </div>
      );
    case 'rateLimited':
    case 'network':
      return (
        <div className="download-card download-state">
          <span className="download-state-icon download-state-icon-warn" aria-hidden="true">
            <AlertIcon width={28} height={28} />
          </span>
          <h1 className="download-state-title" data-testid="download-error">
            {result.kind === 'rateLimited' ? t(result.text.key, result.text.params) : t('download.networkError')}
          </h1>
          <div className="hero-actions center-actions">
            <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
              {t('download.refresh')}
            </button>
          </div>
        </div>
      );
  }
}
