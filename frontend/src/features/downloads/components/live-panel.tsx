import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { livePollDelayMs } from '@domain/live-upload';
import type { DownloadView, NotifyCompleteRequest } from '@domain/transfer-api';
import { DOWNLOAD_REQUEST_TIMEOUT_MS } from '@domain/ui-timings';
import { i18n } from '@/i18n/i18n';
import { ApiError, apiFetch } from '@/lib/api';
import { importWithRetry } from '@/lib/import-with-retry';
import { fetchDownload, type DownloadAccess } from '@/shared/downloads/download-api';
import { downloadFailureOf, type DownloadFailure } from '@/features/downloads/download-failure';
import { CheckIcon } from '@/components/icons';
import { InlineField } from '@/features/downloads/components/inline-field';

/** The panel renders translated on its first paint: the page waits for this with the chunk. */
export const ready = i18n.loadNamespaces('live');

/** "3 minutes", in the reader's language, from the server's estimate. */
function durationText(seconds: number, language: string): string {
  const [value, unit] =
    seconds >= 3600
      ? [Math.ceil(seconds / 3600), 'hour']
      : seconds >= 60
        ? [Math.ceil(seconds / 60), 'minute']
        : [seconds, 'second'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/**
 * A transfer still uploading (decision 0074): how many files are in and the time left, the page
 * asking again (3 s, longer while nothing arrives, up to a minute) until the transfer is complete
 * (the view has no `upload` any more and this panel goes) or withdrawn (the page's 410), and
 * "Mail me when it's complete".
 */
export function LivePanel({
  view,
  access,
  onView,
  onFailure,
}: {
  view: DownloadView;
  access: () => DownloadAccess;
  onView: (view: DownloadView) => void;
  onFailure: (failure: DownloadFailure) => void;
}) {
  const { t, i18n: own } = useTranslation('live');
  const upload = view.upload;
  const unchanged = useRef(0);
  const [retry, setRetry] = useState(0);

  useEffect(() => {
    if (!upload) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetchDownload(access(), controller.signal).then(
        (next) => {
          // back to asking often once a file arrived; less and less often while none does
          unchanged.current = next.upload?.filesDone === upload.filesDone ? unchanged.current + 1 : 0;
          onView(next);
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          const failure = downloadFailureOf(error);
          unchanged.current += 1;
          // a passing network error leaves the page as it is and asks again later
          if (failure.kind === 'network' || failure.kind === 'rateLimited') setRetry((n) => n + 1);
          else onFailure(failure);
        },
      );
    }, livePollDelayMs(unchanged.current));
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [upload, retry]);

  if (!upload) return null;
  const left =
    upload.secondsLeft === undefined
      ? t('timeUnknown')
      : t('timeLeft', { time: durationText(upload.secondsLeft, own.language) });
  return (
    <section className="download-live" aria-labelledby="download-live-title" data-testid="download-live">
      <h2 id="download-live-title" className="download-live-title">
        <span className="download-spinner download-spinner-brand" aria-hidden="true" />
        {t('uploading')}
      </h2>
      <p className="download-live-progress" role="status" data-testid="download-live-progress">
        {t('progress', { done: upload.filesDone, total: upload.fileCount })} ·{' '}
        <span data-testid="download-live-left">{left}</span>
      </p>
      <progress
        className="download-live-bar"
        value={upload.bytesDone}
        max={Math.max(1, upload.totalBytes)}
        aria-label={t('progressLabel')}
      />
      <p className="muted">{t('arriving')}</p>
      <NotifyForm access={access} />
    </section>
  );
}

function loadEmailSchema() {
  return importWithRetry(() => import('@domain/validation')).then((m) => m.emailSchema);
}

async function notifyWhenComplete(request: NotifyCompleteRequest): Promise<void> {
  await apiFetch<unknown>('/getDownload/notify', { body: request, timeoutMs: DOWNLOAD_REQUEST_TIMEOUT_MS });
}

/** "Mail me when it's complete": one address; the server keeps one mail per address. */
function NotifyForm({ access }: { access: () => DownloadAccess }) {
  const { t, i18n: own } = useTranslation('live');
  const input = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shaking, setShaking] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const parsed = (await loadEmailSchema()).safeParse(email);
    if (!parsed.success) {
      setError(t('notifyInvalid'));
      setShaking(true);
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const { id, password, recipient } = access();
    try {
      await notifyWhenComplete({
        id,
        ...(password !== undefined ? { password } : {}),
        ...(recipient !== undefined ? { recipient } : {}),
        email: parsed.data,
        lang: own.resolvedLanguage ?? own.language,
      });
      setSentTo(parsed.data);
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      setError(status === 400 ? t('notifyInvalid') : status === 429 ? t('notifyTooMany') : t('notifyFailed'));
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <p className="download-notice download-notice-success" role="status" data-testid="notify-done">
        <CheckIcon aria-hidden="true" />
        <span>{t('notifyDone', { email: sentTo })}</span>
      </p>
    );
  }
  return (
    <form className="download-form" onSubmit={(event) => void submit(event)} noValidate>
      <InlineField
        label={t('notifyTitle')}
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
        submitText={t('notifySubmit')}
        inputTestId="notify-email"
        submitTestId="notify-submit"
        errorTestId="notify-error"
      />
    </form>
  );
}
