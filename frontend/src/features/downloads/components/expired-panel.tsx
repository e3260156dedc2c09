import { Suspense, lazy, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLoaderData } from 'react-router';
import { accessBody, requestExtension, storedAccess, type DownloadAccess } from '@/shared/downloads/download-api';
import { DOWNLOAD_REQUEST_TIMEOUT_MS } from '@domain/ui-timings';
import type { downloadLoader } from '@/features/downloads/download-loader';
import { ApiError, apiFetch } from '@/lib/api';
import { errorTextOf } from '@/i18n/error-keys';
import { importWithRetry } from '@/lib/import-with-retry';
import { expiredText } from '@/features/downloads/expired-text';
import { CheckIcon } from '@/components/icons';
import { ClockIcon } from '@/features/downloads/components/download-icons';
import { InlineField } from '@/features/downloads/components/inline-field';
import { StatePanel } from '@/features/downloads/components/state-panel';

// A review stays readable once the transfer expired (while its files are kept); its chunk loads only when there is one.
const ReviewPanel = lazy(() =>
  importWithRetry(() => import('@/features/downloads/review/review-panel')).then((m) => ({ default: m.ReviewPanel })),
);

/**
 * 410: how long ago the download expired and, while the files still exist, 'Request extension';
 * below it the transfer's review, read only, when it had one.
 */
export function ExpiredPanel({ id, expiryDate, extendable }: { id: string; expiryDate: number; extendable: boolean }) {
  const { t, i18n } = useTranslation();
  // Read the clock once, so re-renders (typing an email) do not move the text.
  const [now] = useState(() => Date.now());
  return (
    <>
      <StatePanel
        icon={ClockIcon}
        warn
        title={expiredText(expiryDate, now, i18n.language, t)}
        titleTestId="download-expired"
      >
        {extendable && <ExtensionRequestForm id={id} />}
      </StatePanel>
      {id && <ExpiredReview id={id} expiryDate={expiryDate} />}
    </>
  );
}

/** Asks for the review (409 review_off, or any refusal: nothing shows); there is one: it shows, read only. */
function ExpiredReview({ id, expiryDate }: { id: string; expiryDate: number }) {
  const { route } = useLoaderData<typeof downloadLoader>();
  const [on, setOn] = useState(false);
  const access = (): DownloadAccess => {
    const session = storedAccess(id);
    return { id, ...(route.recipient ? { recipient: route.recipient } : {}), ...(session ? { access: session } : {}) };
  };
  useEffect(() => {
    const controller = new AbortController();
    // asked here, not through the review's own calls: sharing them split a chunk onto every download page's first load
    apiFetch<unknown>('/getDownload/review', {
      body: accessBody(access()),
      timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS,
      signal: controller.signal,
    }).then(
      () => setOn(true),
      () => undefined,
    );
    return () => controller.abort();
  }, [id]);
  if (!on) return null;
  return (
    <Suspense fallback={null}>
      <div className="download-card rv-card">
        <ReviewPanel expiryDate={expiryDate} access={access} />
      </div>
    </Suspense>
  );
}

/** The email rules (zod) load when a visitor first asks, not with the download page. */
function loadEmailSchema() {
  return importWithRetry(() => import('@domain/validation')).then((m) => m.emailSchema);
}

function ExtensionRequestForm({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shaking, setShaking] = useState(false);
  const [sent, setSent] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const parsed = (await loadEmailSchema()).safeParse(email);
    if (!parsed.success) {
      setError(t('download.invalidEmail'));
      setShaking(true);
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await requestExtension({ id, email: parsed.data, lang: i18n.resolvedLanguage ?? i18n.language });
      setSent(true);
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      if (status === 400) setError(t('download.invalidEmail'));
      else if (status === 404) setError(t('download.notFound'));
      // the files were purged meanwhile: nothing left to extend
      else if (status === 410) setError(t('extension.expiredTitle'));
      // 409 (extended meanwhile) and 429 (already asked) carry a message meant for the visitor
      else if ((status === 409 || status === 429) && err instanceof ApiError) {
        const text = errorTextOf(err);
        setError(t(text.key, text.params));
      } else setError(t('download.networkError'));
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <p className="download-notice download-notice-success" role="status" data-testid="extension-requested">
        <CheckIcon aria-hidden="true" />
        <span>{t('download.extensionRequested')}</span>
      </p>
    );
  }

  return (
    <form className="download-form" onSubmit={(event) => void submit(event)} noValidate>
      <p className="muted">{t('download.extensionHint')}</p>
      <InlineField
        label={t('download.emailLabel')}
        inputRef={input}
        type="email"
        inputMode="email"
        autoComplete="email"
        value={email}
        onChange={setEmail}
        shaking={shaking}
        onShakeEnd={() => setShaking(false)}
        error={error}
        busy={busy}
        submitText={t('download.requestExtension')}
        inputTestId="extension-email"
        submitTestId="request-extension"
      />
    </form>
  );
}
