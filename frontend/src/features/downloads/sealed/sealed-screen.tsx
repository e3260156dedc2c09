import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadFile, DownloadView } from '@domain/transfer-api';
import { i18n } from '@/i18n/i18n';
import { formatSize } from '@/lib/format-size';
import { AlertIcon, LinkOffIcon, LockIcon } from '@/features/downloads/components/download-icons';
import { InlineField } from '@/features/downloads/components/inline-field';
import { StatePanel } from '@/features/downloads/components/state-panel';
import { TransferView, type TransferViewProps } from '@/features/downloads/components/transfer-view';
import type { SealedActions } from '@/features/downloads/sealed-actions';
import { SealedPreviews } from './sealed-previews';
import { formatKnown, keyFromLink, keyFromWords, type LinkKey } from './sealed-key';
import { SEALED_BLOB_SAVE_MAX_BYTES } from './sealed-limits';
import { SaveTooLargeError, saveOpened } from './sealed-save';
import { isTamper, openedStream } from './sealed-stream';
import { zipEntries, zipNameOf, zipSizeOf, zipStream } from './sealed-zip';
import '@/components/previews/previews.css';

/** The texts of this screen and of the previews it reuses (locales/previews, `sealed.…`). */
export const ready = i18n.loadNamespaces('previews');

/**
 * An end-to-end encrypted transfer (docs/e2e-format.md): the key from the link's fragment or a
 * passphrase, checked before anything downloads; then the transfer's files, opened, zipped and
 * previewed in this browser. The key never leaves this tab's memory, and the link keeps its
 * fragment as it came (copying the address still gives a working link).
 */
export function SealedScreen(props: Omit<TransferViewProps, 'sealed'>) {
  const { t } = useTranslation('previews');
  const e2e = props.view.e2e!;
  const [key, setKey] = useState<Uint8Array | null>(null);
  const [link, setLink] = useState<LinkKey | 'checking'>('checking');

  useEffect(() => {
    if (e2e.mode !== 'link' || !formatKnown(e2e)) return;
    let live = true;
    const read = () =>
      void keyFromLink(window.location.hash, e2e.check).then((found) => {
        if (!live) return;
        setLink(found);
        if (found.kind === 'ok') setKey(found.key);
      });
    read();
    // a visitor who pastes the whole link into the same tab changes only the fragment
    addEventListener('hashchange', read);
    return () => {
      live = false;
      removeEventListener('hashchange', read);
    };
  }, [e2e.mode, e2e.check]);

  if (!formatKnown(e2e)) {
    return <StatePanel icon={AlertIcon} warn title={t('sealed.newerVersion')} titleTestId="sealed-newer" />;
  }
  if (key) return <SealedTransfer {...props} transferKey={key} />;
  if (e2e.mode === 'passphrase') return <PassphrasePanel view={props.view} onKey={setKey} />;
  if (link === 'checking') return null;
  return (
    <StatePanel
      icon={LinkOffIcon}
      warn
      title={t(link.kind === 'missing' ? 'sealed.keyMissing' : 'sealed.keyDamaged')}
      titleTestId="sealed-key-problem"
    >
      <p className="muted">{t('sealed.keyHelp')}</p>
    </StatePanel>
  );
}

/** The passphrase the sender told the recipients themselves; Argon2id takes about a second here. */
function PassphrasePanel({ view, onKey }: { view: DownloadView; onKey: (key: Uint8Array) => void }) {
  const { t } = useTranslation('previews');
  const input = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState('');
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shaking, setShaking] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (opening) return;
    if (value === '') {
      setShaking(true);
      input.current?.focus();
      return;
    }
    setOpening(true);
    setError(null);
    // let "Opening…" paint before the key derivation holds the thread
    await new Promise((resolve) => setTimeout(resolve, 30));
    const key = await keyFromWords(value, view.e2e!);
    if (key) {
      onKey(key);
      return;
    }
    setOpening(false);
    setError(t('sealed.wrongPassphrase'));
    setShaking(true);
    input.current?.select();
  }

  return (
    <StatePanel icon={LockIcon} title={t('sealed.passphraseTitle')} titleTestId="sealed-passphrase-title">
      <p className="muted">{t('sealed.passphraseIntro')}</p>
      <form className="download-form" onSubmit={(event) => void submit(event)} noValidate>
        <InlineField
          label={t('sealed.passphraseLabel')}
          inputRef={input}
          autoFocus
          type="password"
          autoComplete="off"
          value={value}
          onChange={setValue}
          shaking={shaking}
          onShakeEnd={() => setShaking(false)}
          error={error}
          busy={opening}
          submitText={opening ? t('sealed.opening') : t('sealed.open')}
          inputTestId="sealed-passphrase"
          submitTestId="sealed-open"
          errorTestId="sealed-passphrase-error"
        />
      </form>
      {opening && (
        <p className="download-notice" role="status" data-testid="sealed-opening">
          <span className="download-spinner download-spinner-brand" aria-hidden="true" />
          {t('sealed.openingLong')}
        </p>
      )}
    </StatePanel>
  );
}

/** The files of the opened transfer, sized as the recipient will have them. */
function plainView(view: DownloadView): DownloadView {
  return { ...view, files: view.files.map((f) => (f.e2e ? { ...f, size: f.e2e.plainSize } : f)) };
}

function SealedTransfer({ transferKey, ...props }: Omit<TransferViewProps, 'sealed'> & { transferKey: Uint8Array }) {
  const {
    t,
    i18n: { language },
  } = useTranslation('previews');
  const view = useMemo(() => plainView(props.view), [props.view]);
  const open = (file: DownloadFile, url: string, signal: AbortSignal) => {
    if (!file.e2e) throw new Error('a file of an encrypted transfer has no encryption parameters');
    return openedStream(url, transferKey, file.e2e, 'file', signal);
  };
  const sealed: SealedActions = {
    saveFile: (file, url, signal) =>
      saveOpened(file.fileName, file.e2e?.plainSize ?? file.size, () => open(file, url, signal), signal),
    async saveAll(files, urlOf, signal) {
      const entries = zipEntries(files);
      const lastModified = new Date();
      await saveOpened(
        zipNameOf(view.id, files),
        zipSizeOf(entries),
        async () => zipStream(entries, async (file) => open(file, await urlOf(file), signal), lastModified),
        signal,
      );
    },
    errorText(failure) {
      if (isTamper(failure)) return t('sealed.tampered');
      if (failure instanceof SaveTooLargeError) {
        return t('sealed.tooLargeHere', { size: formatSize(SEALED_BLOB_SAVE_MAX_BYTES, language) });
      }
      return null;
    },
    previews: <SealedPreviews files={view.files} access={props.access} transferKey={transferKey} />,
    notice: (
      <p className="download-notice sealed-notice" data-testid="sealed-notice">
        <LockIcon width={16} height={16} aria-hidden="true" />
        <span>
          {t(view.e2e?.mode === 'passphrase' ? 'sealed.noticePassphrase' : 'sealed.noticeLink')}{' '}
          {t('sealed.notScanned')}
        </span>
      </p>
    ),
  };
  return <TransferView {...props} view={view} sealed={sealed} />;
}
