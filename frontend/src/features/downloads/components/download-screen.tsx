import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import type { DownloadView } from '@domain/transfer-api';
import { useTranslation } from 'react-i18next';
import { HomeSupportActions } from '@/components/home-support-actions';
import { fetchDownload, storeAccess, storedAccess, type DownloadAccess } from '@/shared/downloads/download-api';
import { downloadFailureOf, replacesPage, type DownloadFailure } from '@/features/downloads/download-failure';
import type { DownloadResult } from '@/features/downloads/download-loader';
import type { DownloadRoute } from '@/features/downloads/download-route';
import { AlertIcon, LinkOffIcon } from '@/features/downloads/components/download-icons';
import { StatePanel } from '@/features/downloads/components/state-panel';
import { TransferView } from '@/features/downloads/components/transfer-view';
import { transferTitle } from '@/features/downloads/transfer-title';
import { importWithRetry } from '@/lib/import-with-retry';
import { usePageTitle } from '@/lib/use-page-title';

// Only expired links show it: its form and texts stay out of the page's first load.
const ExpiredPanel = lazy(() =>
  importWithRetry(() => import('@/features/downloads/components/expired-panel')).then((m) => ({
    default: m.ExpiredPanel,
  })),
);

// Only password-protected transfers show it: its form stays out of the first load of the others.
const PasswordPanel = lazy(() =>
  importWithRetry(() => import('@/features/downloads/components/password-panel')).then((m) => ({
    default: m.PasswordPanel,
  })),
);

// Only a transfer still uploading shows it: its polling, form and texts stay out of the first load.
const LivePanel = lazy(() =>
  importWithRetry(() => import('@/features/downloads/components/live-panel')).then((m) =>
    m.ready.then(() => ({ default: m.LivePanel })),
  ),
);

// Only verified-recipient transfers show them: the code step and its texts stay out of the others' first load.
const verifyModule = () =>
  importWithRetry(() => import('@/features/downloads/components/verify-panel')).then((m) => m.ready.then(() => m));
const VerifyPanel = lazy(() => verifyModule().then((m) => ({ default: m.VerifyPanel })));
const AccessEndedPanel = lazy(() => verifyModule().then((m) => ({ default: m.AccessEndedPanel })));

// Only end-to-end encrypted transfers show it: the key prompt, the crypto, the ZIP writer and
// their texts stay out of every other transfer's first load.
const SealedScreen = lazy(() =>
  importWithRetry(() => import('@/features/downloads/sealed/sealed-screen')).then((m) =>
    m.ready.then(() => ({ default: m.SealedScreen })),
  ),
);

/** How often the page asks again while the files are being checked. */
const SCAN_POLL_MS = 1500;

/**
 * One transfer's screen, from the loader's first answer: the files, the password form, or why
 * there is nothing to download; it asks again while the malware scan runs.
 */
export function DownloadScreen({
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
  // A verified recipient's session (decision 0076), kept for the tab; the server checks it on every call.
  const session = useRef<string | undefined>(id ? storedAccess(id) : undefined);
  const access = (): DownloadAccess => ({
    id: id ?? '',
    password: password.current,
    recipient: route.recipient,
    ...(session.current ? { access: session.current } : {}),
  });

  // A verified session is asked again when the tab regains focus, so a removed or revoked
  // recipient's open page says so rather than failing at the next click.
  const verified = result.kind === 'ready' && session.current !== undefined;
  useEffect(() => {
    if (!verified) return;
    const recheck = () =>
      fetchDownload(access()).then(
        (view) => setResult({ kind: 'ready', view }),
        (error: unknown) => {
          const failure = downloadFailureOf(error);
          if (failure.kind === 'accessEnded' || failure.kind === 'verify') fail(failure);
        },
      );
    addEventListener('focus', recheck);
    return () => removeEventListener('focus', recheck);
  }, [verified]);

  // while the malware scan runs the page asks again until every file is checked.
  // (a transfer still uploading is asked again by its LivePanel)
  const scanning = result.kind === 'ready' && result.view.scanState === 'pending' && !result.view.upload;
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

  async function unlock(candidate: string | undefined): Promise<DownloadFailure | null> {
    try {
      const view = await fetchDownload({ ...access(), password: candidate });
      password.current = candidate;
      setResult({ kind: 'ready', view });
      onView(view);
      return null;
    } catch (error) {
      const failure = downloadFailureOf(error);
      // the right password, then a verified recipient's own step
      if (failure.kind === 'verify' || failure.kind === 'accessEnded') password.current = candidate;
      if (failure.kind !== 'locked' && replacesPage(failure)) setResult(failure);
      return failure;
    }
  }

  function verifiedAs(token: string): Promise<DownloadFailure | null> {
    session.current = token;
    if (id) storeAccess(id, token);
    return unlock(password.current);
  }

  function fail(failure: DownloadFailure) {
    // A 401 after unlocking means the password no longer holds; ask for it again.
    if (failure.kind === 'locked') password.current = undefined;
    // the session no longer opens the transfer: forget it
    if ((failure.kind === 'verify' || failure.kind === 'accessEnded') && id) {
      session.current = undefined;
      storeAccess(id, undefined);
    }
    setResult(failure);
  }

  switch (result.kind) {
    case 'ready': {
      const props = {
        view: result.view,
        access,
        autoZip: autoZipPending,
        onAutoZipDone: () => setAutoZipPending(false),
        onFailure: fail,
        live: result.view.upload && (
          <Suspense fallback={null}>
            <LivePanel
              view={result.view}
              access={access}
              onView={(view) => setResult({ kind: 'ready', view })}
              onFailure={fail}
            />
          </Suspense>
        ),
      };
      // the sealed screen's chunk gets the transfer view from here rather than importing it, so
      // that view stays in this page's first chunk
      return result.view.e2e ? (
        <Suspense fallback={null}>
          <SealedScreen view={result.view} access={access}>
            {(sealed, view) => <TransferView {...props} view={view} sealed={sealed} />}
          </SealedScreen>
        </Suspense>
      ) : (
        <TransferView {...props} />
      );
    }
    case 'locked':
      return (
        <Suspense fallback={null}>
          <PasswordPanel initialWrong={result.wrong} onUnlock={unlock} />
        </Suspense>
      );
    case 'verify':
      return (
        <Suspense fallback={null}>
          <VerifyPanel
            id={id ?? ''}
            recipient={route.recipient}
            password={password.current}
            initialEmail={result.email}
            onVerified={(s) => verifiedAs(s.access)}
            onEnded={(reason) => fail({ kind: 'accessEnded', reason })}
          />
        </Suspense>
      );
    case 'accessEnded':
      return (
        <Suspense fallback={null}>
          <AccessEndedPanel reason={result.reason} />
        </Suspense>
      );
    case 'disabled':
    case 'withdrawn':
      return (
        <StatePanel
          icon={AlertIcon}
          warn
          title={t(result.kind === 'disabled' ? 'download.disabled' : 'download.withdrawn')}
          titleTestId={`download-${result.kind}`}
        >
          <HomeSupportActions />
        </StatePanel>
      );
    case 'expired':
      return (
        <Suspense fallback={null}>
          <ExpiredPanel id={id ?? ''} expiryDate={result.expiryDate} extendable={result.extendable} />
        </Suspense>
      );
    case 'limitReached':
      return (
        <StatePanel icon={AlertIcon} warn title={t('download.limitReached')} titleTestId="download-limit-reached">
          <HomeSupportActions />
        </StatePanel>
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
