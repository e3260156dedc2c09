import { Suspense, lazy, useEffect, useRef, useState, type CSSProperties } from 'react';
import type { PublicBranding } from '@domain/branding-api';
import type { DownloadView } from '@domain/transfer-api';
import { useTranslation } from 'react-i18next';
import { Link, useLoaderData, useLocation } from 'react-router';
import { paths } from '@/app/paths';
import { HomeSupportActions } from '@/components/home-support-actions';
import { company } from '@/config/company';
import { fetchDownload, type DownloadAccess } from '@/shared/downloads/download-api';
import { downloadFailureOf, type DownloadFailure } from '@/features/downloads/download-failure';
import type { DownloadResult, downloadLoader } from '@/features/downloads/download-loader';
import type { DownloadRoute } from '@/features/downloads/download-route';
import { AlertIcon, LinkOffIcon } from '@/features/downloads/components/download-icons';
import { PasswordPanel } from '@/features/downloads/components/password-panel';
import { StatePanel } from '@/features/downloads/components/state-panel';
import { TransferView } from '@/features/downloads/components/transfer-view';
import { transferTitle } from '@/features/downloads/transfer-title';
import { importWithRetry } from '@/lib/import-with-retry';
import { useNoIndex } from '@/lib/use-no-index';
import { usePageTitle } from '@/lib/use-page-title';
import '@/features/downloads/components/download-page.css';

// Only expired links show it: its form and texts stay out of the page's first load.
const ExpiredPanel = lazy(() =>
  importWithRetry(() => import('@/features/downloads/components/expired-panel')).then((m) => ({
    default: m.ExpiredPanel,
  })),
);

/** How often the page asks again while the files are being checked. */
const SCAN_POLL_MS = 1500;

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

/**
 * The sender's colours as CSS variables (buttons take the accent with the server's readable
 * text colour; links take it only when it reads on white) and the background.
 */
function brandStyle(b: PublicBranding): CSSProperties {
  const vars: Record<string, string> = {};
  if (b.accentColor) {
    vars['--brand-accent'] = b.accentColor;
    vars['--brand-accent-text'] = b.accentTextColor ?? '#fff';
    if (b.accentTextColor === '#ffffff') vars['--brand'] = b.accentColor;
  }
  if (b.backgroundColor) vars.backgroundColor = b.backgroundColor;
  if (b.backgroundUrl) vars.backgroundImage = `url("${b.backgroundUrl}")`;
  return vars as CSSProperties;
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

function DownloadScreen({
  route,
  initial,
  onView,
}: {
  route: DownloadRoute;
  initial: DownloadResult;
  onView(view: DownloadView): void;
}) {
  const { t } = useTranslation();
  const [result, setResult] = useState<DownloadResult>(initial);
  // The password lives only in memory, for the file and ZIP calls after unlocking.
  const password = useRef<string | undefined>(undefined);
  // The emailed "Download all" link starts the ZIP once, even across a lock and unlock.
  const [autoZipPending, setAutoZipPending] = useState(route.autoZip);
  usePageTitle(result.kind === 'ready' ? transferTitle(result.view, t) : t('download.pageTitle'));

  const id = route.id;
  const access = (): DownloadAccess => ({ id: id ?? '', password: password.current, recipient: route.recipient });

  // while the malware scan runs the page asks again until every file is checked.
  const scanning = result.kind === 'ready' && result.view.scanState === 'pending';
  useEffect(() => {
    if (!scanning) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetchDownload(access(), controller.signal).then(
        (view) => setResult({ kind: 'ready', view }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const failure = downloadFailureOf(error);
          // a passing network error leaves the page as it is; the next render asks again
          setResult(
            failure.kind === 'network'
              ? (r) => (r.kind === 'ready' ? { kind: 'ready', view: { ...r.view } } : r)
              : failure,
          );
        },
      );
    }, SCAN_POLL_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [result]);

  async function unlock(candidate: string): Promise<DownloadFailure | null> {
    try {
      const view = await fetchDownload({ ...access(), password: candidate });
      password.current = candidate;
      setResult({ kind: 'ready', view });
      onView(view);
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
    case 'disabled':
      return (
        <StatePanel icon={AlertIcon} warn title={t('download.disabled')} titleTestId="download-disabled">
          <HomeSupportActions />
        </StatePanel>
      );
    case 'expired':
      return (
        <Suspense fallback={null}>
          <ExpiredPanel id={id ?? ''} expiryDate={result.expiryDate} extendable={result.extendable} />
        </Suspense>
      );
    case 'notFound':
      return (
        <StatePanel icon={LinkOffIcon} title={t('download.notFound')} titleTestId="download-not-found">
          <HomeSupportActions />
        </StatePanel>
      );
    case 'rateLimited':
    case 'network':
      return (
        <StatePanel
          icon={AlertIcon}
          warn
          title={result.kind === 'rateLimited' ? t(result.text.key, result.text.params) : t('download.networkError')}
          titleTestId="download-error"
        >
          <div className="hero-actions center-actions">
            <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
              {t('download.refresh')}
            </button>
          </div>
        </StatePanel>
      );
  }
}
