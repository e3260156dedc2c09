import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DetailFile, TransferDetail } from '@domain/dashboard-api';
import { groupFileVersions, type FileVersionGroup } from '@domain/file-versions';
import { formatSize } from '@/lib/format-size';
import { importWithRetry } from '@/lib/import-with-retry';
import { errorTextOf } from '@/i18n/error-keys';
import { groupByFolder } from '../transfer-format';
import { availableActions } from '../action-rules';

/** A new version on its way: which file, and how far its upload is. */
interface VersionUpload {
  readonly group: FileVersionGroup<DetailFile>;
  readonly percent: number;
}

type VersionNotice = { readonly kind: 'success' | 'error'; readonly text: string };

/**
 * The transfer's files, grouped by folder, with sizes and any malware scan verdict. A file sent
 * again in a new version shows its current version ("v2") with the older ones under it; the
 * sender of a live transfer may send a new version of each file (`onChanged` reloads after it).
 */
export function FilesSection({ detail, onChanged }: { detail: TransferDetail; onChanged?: () => Promise<void> }) {
  const { t, i18n } = useTranslation('transfers');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const target = useRef<FileVersionGroup<DetailFile> | null>(null);
  const abort = useRef<AbortController | null>(null);
  const [upload, setUpload] = useState<VersionUpload | null>(null);
  const [notice, setNotice] = useState<VersionNotice | null>(null);
  const [notify, setNotify] = useState(false);
  const notifyId = useId();
  const versions = groupFileVersions(detail.files);
  const byCurrent = new Map(versions.map((g) => [g.current.fileId, g]));
  const groups = groupByFolder(versions.map((g) => g.current));
  const canVersion =
    onChanged !== undefined && !detail.readOnly && availableActions(detail, Date.now()).has('addFiles');
  // recipients of an email send may be told of a new version (off by default: the page shows it)
  const canNotify = canVersion && detail.sendAs === 'email' && detail.recipientsDetail.length > 0;

  // Closing the modal mid-upload stops the requests in flight.
  useEffect(() => () => abort.current?.abort(), []);

  const pick = (group: FileVersionGroup<DetailFile>) => {
    target.current = group;
    setNotice(null);
    input.current?.click();
  };

  const onPicked = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    const group = target.current;
    // Cleared so picking the same file again fires change again.
    event.target.value = '';
    if (!file || !group || !onChanged) return;
    const controller = new AbortController();
    abort.current = controller;
    setUpload({ group, percent: 0 });
    try {
      // the upload engine is loaded when a version is sent, not with the dashboard
      const { uploadNewVersion } = await importWithRetry(() => import('./new-version-upload'));
      await uploadNewVersion(detail.slug, group.current.fileId, file, canNotify && notify, {
        signal: controller.signal,
        onProgress: (p) =>
          setUpload({ group, percent: p.bytesTotal > 0 ? Math.floor((p.bytesDone / p.bytesTotal) * 100) : 0 }),
      });
      await onChanged();
      setNotice({
        kind: 'success',
        text: t('versions.done', { version: group.version + 1, name: file.name }),
      });
    } catch (err) {
      if (controller.signal.aborted) return;
      const error = errorTextOf(err);
      setNotice({ kind: 'error', text: tApp(error.key, error.params) });
    } finally {
      setUpload(null);
    }
  };

  return (
    <section className="tr-section" aria-labelledby={id}>
      <h3 id={id}>
        {t('modal.files')} <span className="muted tr-h-meta">{t('modal.filesCount', { count: versions.length })}</span>
      </h3>
      {canNotify && (
        <p className="tr-version-notify">
          <input
            id={notifyId}
            type="checkbox"
            checked={notify}
            disabled={upload !== null}
            onChange={(event) => setNotify(event.target.checked)}
            data-testid="new-version-notify"
          />{' '}
          <label htmlFor={notifyId}>{t('versions.notify')}</label>
        </p>
      )}
      {canVersion && (
        <input
          ref={input}
          type="file"
          hidden
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => void onPicked(event)}
          data-testid="new-version-input"
        />
      )}
      {groups.map((group) => (
        <div key={group.folder || '\u0000'} className="tr-folder">
          {group.folder && (
            <p className="tr-folder-name">
              <FolderIcon /> <span>{group.folder}</span> <span className="muted">· {formatSize(group.size, lng)}</span>
            </p>
          )}
          <ul className="tr-files" aria-label={group.folder || t('modal.files')} data-testid="transfer-files">
            {group.files.map((file) => {
              const versionGroup = byCurrent.get(file.fileId);
              const older = versionGroup ? versionGroup.versions.slice(0, -1).reverse() : [];
              return (
                <li key={file.fileId} className="tr-file-versioned" data-testid="transfer-file">
                  <div className="tr-file-row">
                    <span className="tr-break">
                      {file.fileName}
                      {versionGroup && versionGroup.version > 1 && (
                        <span className="pill pill-muted tr-version" data-testid="transfer-file-version">
                          {t('versions.badge', { version: versionGroup.version })}
                        </span>
                      )}
                      <ScanVerdict file={file} />
                    </span>
                    <span className="muted tr-nowrap">{formatSize(file.size, lng)}</span>
                  </div>
                  {older.length > 0 && (
                    <ul
                      className="tr-versions"
                      aria-label={t('versions.olderOf', { name: file.fileName })}
                      data-testid="transfer-file-older"
                    >
                      {older.map((v) => (
                        <li key={v.fileId}>
                          <span className="tr-break muted">
                            {t('versions.badge', { version: v.version ?? 1 })} · {v.fileName}
                          </span>
                          <span className="muted tr-nowrap">{formatSize(v.size, lng)}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                  {canVersion && versionGroup && (
                    <div className="tr-version-action">
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm"
                        disabled={upload !== null}
                        aria-label={t('versions.sendOf', { name: file.fileName })}
                        onClick={() => pick(versionGroup)}
                        data-testid="send-new-version"
                      >
                        {t('versions.send')}
                      </button>
                      {upload?.group.fileId === versionGroup.fileId && (
                        <div className="tr-progress">
                          <div
                            className="tr-progress-bar"
                            role="progressbar"
                            aria-label={t('versions.progressLabel', { name: file.fileName })}
                            aria-valuemin={0}
                            aria-valuemax={100}
                            aria-valuenow={upload.percent}
                          >
                            <span style={{ width: `${Math.max(3, upload.percent)}%` }} />
                          </div>
                          <span className="muted">{t('versions.uploading', { percent: upload.percent })}</span>
                        </div>
                      )}
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ))}
      {canVersion && (
        <p
          className={`tr-live${notice ? ` tr-notice tr-notice-${notice.kind}` : ''}`}
          role={notice?.kind === 'error' ? 'alert' : 'status'}
          data-testid="new-version-notice"
        >
          {notice?.text ?? (upload ? t('versions.started', { name: upload.group.current.fileName }) : '')}
        </p>
      )}
    </section>
  );
}

function ScanVerdict({ file }: { file: DetailFile }) {
  const { t } = useTranslation('transfers');
  if (!file.scan) return null;
  return (
    <span className={`tr-scan tr-scan-${file.scan}`} data-testid="transfer-file-scan">
      {file.scan === 'pending'
        ? t('modal.scanPending')
        : file.scan === 'removed'
          ? t('modal.scanRemoved')
          : file.scan === 'unscanned'
            ? t('modal.scanUnscanned')
            : t('modal.scanError')}
      {file.finding && <span className="muted"> · {file.finding}</span>}
    </span>
  );
}

function FolderIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="16"
      height="16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
    </svg>
  );
}
