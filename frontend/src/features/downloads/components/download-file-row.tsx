import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadFile } from '@domain/transfer-api';
import { formatSize } from '@/lib/format-size';
import { folderOf } from '@/features/downloads/file-folder';
import { AlertIcon, DownloadIcon, FileIcon } from '@/features/downloads/components/download-icons';

/** One file of the transfer: its name, folder and size, a scan's verdict, and its Download button. */
export function FileRow({
  file,
  primary,
  started,
  busy,
  onDownload,
}: {
  file: DownloadFile;
  /** the only file: its button is the page's main action */
  primary: boolean;
  started: boolean;
  busy: boolean;
  onDownload: () => void;
}) {
  const { t, i18n } = useTranslation();
  const nameId = useId();
  const folder = folderOf(file);
  // removed by the malware scan, or not checkable: listed, never downloadable; too large to scan: said so
  const withheld = file.scan === 'removed' || file.scan === 'error';

  return (
    <li className="download-file">
      <span className="download-file-icon" aria-hidden="true">
        <FileIcon />
      </span>
      <span className="download-file-text">
        <span className="download-file-name" id={nameId} title={file.fileName}>
          {file.fileName}
        </span>
        {/* an end-to-end encrypted file is unscanned by design: the page says so once, above the files */}
        {(withheld || (file.scan === 'unscanned' && !file.e2e)) && (
          <span className="download-file-removed" data-testid="download-file-note">
            <AlertIcon width={14} height={14} aria-hidden="true" />
            {t(
              file.scan === 'removed'
                ? 'download.scanRemoved'
                : file.scan === 'error'
                  ? 'download.scanError'
                  : 'download.scanUnscanned',
            )}
          </span>
        )}
        <span className="download-file-meta">
          {folder && (
            <span className="download-file-folder" title={folder}>
              {folder}/
            </span>
          )}
          <span>{formatSize(file.size, i18n.language)}</span>
        </span>
      </span>
      {!withheld && (
        <button
          type="button"
          className={`btn ${primary ? 'btn-primary' : 'btn-ghost'} btn-sm download-file-button`}
          disabled={busy}
          onClick={onDownload}
          aria-describedby={nameId}
          data-testid="download-file"
          data-file-name={file.fileName}
        >
          {busy ? <span className="download-spinner" aria-hidden="true" /> : <DownloadIcon width={16} height={16} />}
          <span className="download-file-label icon-only-label">
            {started ? t('download.downloadAgain') : t('download.download')}
          </span>
        </button>
      )}
    </li>
  );
}
