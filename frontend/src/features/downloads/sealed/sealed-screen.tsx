import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadFile, DownloadView } from '@domain/transfer-api';
import { i18n } from '@/i18n/i18n';
import { formatSize } from '@/lib/format-size';
import { AlertIcon, LinkOffIcon, LockIcon } from '@/features/downloads/components/download-icons';
import { InlineField } from '@/features/downloads/components/inline-field';
import { StatePanel } from '@/features/downloads/components/state-panel';
import { fetchFileUrl, type DownloadAccess } from '@/shared/downloads/download-api';
import type { SealedActions } from '@/features/downloads/sealed-actions';
import { importWithRetry } from '@/lib/import-with-retry';
import { addSealedTexts } from './sealed-texts';
import { SealedPreviews, type GalleryParts } from './sealed-previews';
import { formatKnown, keyFromLink, keyFromWords, type LinkKey } from './sealed-key';
import { SEALED_BLOB_SAVE_MAX_BYTES } from './sealed-limits';
import { SaveTooLargeError, saveOpened } from './sealed-save';
import { isTamper, openedStream } from './sealed-stream';
import { zipEntries, zipNameOf, zipSizeOf, zipStream } from './sealed-zip';

let gallery: GalleryParts | undefined;

/**
 * The texts of this screen (locales/sealed) and of the previews (locales/previews), and the plain
 * gallery's chunk, whose tiles, players and viewer the decrypted previews reuse.
 */
export const ready = Promise.all([
  addSealedTexts(),
  i18n.loadNamespaces('previews'),
  importWithRetry(() => import('@/components/previews/preview-gallery')).then(async (m) => {
    await m.ready;
    gallery = m;
  }),
]);

export interface SealedScreenProps {
  readonly view: DownloadView;
  readonly access: () => DownloadAccess;
  /** the transfer view, given what this screen does for a sealed transfer and the files at their opened sizes */
  readonly children: (sealed: SealedActions, view: DownloadView) => ReactNode;
}

/**
 * An end-to-end encrypted transfer (docs/e2e-format.md): the key from the link's fragment or a
 * passphrase, checked before anything downloads; then the transfer's files, opened, zipped and
 * previewed in this browser. The key never leaves this tab's memory, and the link keeps its
 * fragment as it came (copying the address still gives a working link).
 */
export function SealedScreen(props: SealedScreenProps) {
  const { t } = useTranslation('sealed');
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
    return <StatePanel icon={AlertIcon} warn title={t('newerVersion')} titleTestId="sealed-newer" />;
  }
  if (key) return <SealedTransfer {...props} transferKey={key} />;
  if (e2e.mode === 'passphrase') return <PassphrasePanel view={props.view} onKey={setKey} />;
  if (link === 'checking') return null;
  return (
    <StatePanel
      icon={LinkOffIcon}
      warn
      title={t(link.kind === 'missing' ? 'keyMissing' : 'keyDamaged')}
      titleTestId="sealed-key-problem"
    >
      <p className="muted">{t('keyHelp')}</p>
    </StatePanel>
  );
}

/** The passphrase the sender told the recipients themselves; Argon2id takes about a second here. */
function PassphrasePanel({ view, onKey }: { view: DownloadView; onKey: (key: Uint8Array) => void }) {
  const { t } = useTranslation('sealed');
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
    setError(t('wrongPassphrase'));
    setShaking(true);
    input.current?.select();
  }

  return (
    <StatePanel icon={LockIcon} title={t('passphraseTitle')} titleTestId="sealed-passphrase-title">
      <p className="muted">{t('passphraseIntro')}</p>
      <form className="download-form" onSubmit={(event) => void submit(event)} noValidate>
        <InlineField
          label={t('passphraseLabel')}
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
          submitText={opening ? t('opening') : t('open')}
          inputTestId="sealed-passphrase"
          submitTestId="sealed-open"
          errorTestId="sealed-passphrase-error"
        />
      </form>
      {opening && (
        <p className="download-notice" role="status" data-testid="sealed-opening">
          <span className="download-spinner download-spinner-brand" aria-hidden="true" />
          {t('openingLong')}
        </p>
      )}
    </StatePanel>
  );
}

/** The files of the opened transfer, sized as the recipient will have them. */
function plainView(view: DownloadView): DownloadView {
  return { ...view, files: view.files.map((f) => (f.e2e ? { ...f, size: f.e2e.plainSize } : f)) };
}

function SealedTransfer({ transferKey, ...props }: SealedScreenProps & { transferKey: Uint8Array }) {
  const {
    t,
    i18n: { language },
  } = useTranslation('sealed');
  const view = useMemo(() => plainView(props.view), [props.view]);
  const open = (file: DownloadFile, url: string, signal: AbortSignal) => {
    if (!file.e2e) throw new Error('a file of an encrypted transfer has no encryption parameters');
    return openedStream(url, transferKey, file.e2e, 'file', signal);
  };
  const sealed: SealedActions = {
    saveFile: (file, url, signal) =>
      saveOpened(file.fileName, file.e2e?.plainSize ?? file.size, () => open(file, url, signal), signal),
    async saveAll(files, signal) {
      // each file's own presigned URL, as a single download asks for it: counted and limited alike
      const urlOf = (file: DownloadFile) => fetchFileUrl(props.access(), file.fileId, signal).then((r) => r.url);
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
      // the visitor cancelled the save (the file picker, the browser's download bar)
      if (failure instanceof DOMException && failure.name === 'AbortError') return '';
      if (isTamper(failure)) return t('tampered');
      if (failure instanceof SaveTooLargeError) {
        return t('tooLargeHere', { size: formatSize(SEALED_BLOB_SAVE_MAX_BYTES, language) });
      }
      return null;
    },
    previews: gallery ? (
      <SealedPreviews files={view.files} access={props.access} transferKey={transferKey} gallery={gallery} />
    ) : null,
    notice: (
      <p className="download-notice sealed-notice" data-testid="sealed-notice">
        <LockIcon width={16} height={16} aria-hidden="true" />
        <span>
          {t(view.e2e?.mode === 'passphrase' ? 'noticePassphrase' : 'noticeLink')} {t('notScanned')}
        </span>
      </p>
    ),
  };
  return props.children(sealed, view);
}
