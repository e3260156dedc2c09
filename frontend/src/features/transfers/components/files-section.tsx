import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransferDetail } from '@domain/dashboard-api';
import { formatSize } from '@/lib/format-size';
import { groupByFolder } from '../transfer-format';

/** The transfer's files, grouped by folder, with sizes and any malware scan verdict. */
export function FilesSection({ detail }: { detail: TransferDetail }) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const groups = groupByFolder(detail.files);
  return (
    <section className="tr-section" aria-labelledby={id}>
      <h3 id={id}>
        {t('modal.files')}{' '}
        <span className="muted tr-h-meta">{t('modal.filesCount', { count: detail.files.length })}</span>
      </h3>
      {groups.map((group) => (
        <div key={group.folder || '\u0000'} className="tr-folder">
          {group.folder && (
            <p className="tr-folder-name">
              <FolderIcon /> <span>{group.folder}</span> <span className="muted">· {formatSize(group.size, lng)}</span>
            </p>
          )}
          <ul className="tr-files" aria-label={group.folder || t('modal.files')} data-testid="transfer-files">
            {group.files.map((file) => (
              <li key={file.fileId}>
                <span className="tr-break">
                  {file.fileName}
                  {file.scan && (
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
                  )}
                </span>
                <span className="muted tr-nowrap">{formatSize(file.size, lng)}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
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
