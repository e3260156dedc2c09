import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadFailure } from '@/features/downloads/download-failure';
import { LockIcon } from '@/features/downloads/components/download-icons';
import { InlineField } from '@/features/downloads/components/inline-field';
import { StatePanel } from '@/features/downloads/components/state-panel';

/**
 * 401: the password field and unlock button. A wrong password shakes the field and says so;
 * a 429 (too many attempts) shows the server's message. On success the page shows the files.
 */
export function PasswordPanel({
  initialWrong,
  onUnlock,
}: {
  initialWrong: boolean;
  /** null on success; otherwise what went wrong */
  onUnlock: (password: string) => Promise<DownloadFailure | null>;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(initialWrong ? t('download.wrongPassword') : null);
  const [shaking, setShaking] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (value === '') {
      setShaking(true);
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const failure = await onUnlock(value);
    if (failure === null) return; // the page now shows the files; this panel is gone
    setBusy(false);
    if (failure.kind === 'locked') {
      setError(t('download.wrongPassword'));
      setShaking(true);
      input.current?.select();
    } else if (failure.kind === 'rateLimited') {
      setError(t(failure.text.key, failure.text.params));
    } else if (failure.kind === 'network') {
      setError(t('download.networkError'));
    }
  }

  return (
    <StatePanel icon={LockIcon} title={t('download.protected')}>
      <form className="download-form" onSubmit={(event) => void submit(event)} noValidate>
        <InlineField
          label={t('download.passwordLabel')}
          inputRef={input}
          autoFocus
          type="password"
          autoComplete="off"
          value={value}
          onChange={setValue}
          shaking={shaking}
          onShakeEnd={() => setShaking(false)}
          error={error}
          busy={busy}
          submitText={t('download.unlock')}
          inputTestId="download-password"
          submitTestId="download-unlock"
          errorTestId="download-password-error"
        />
      </form>
    </StatePanel>
  );
}
