import { forwardRef, useRef, type ChangeEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fileKey } from '@domain/file-filters';
import { formatBytes } from '@domain/format';
import { MicIcon, VideoIcon } from '@/components/recorder-icons';
import type { FilesSummary } from '../send-state';
import { pickedFromFiles, type PickedFile } from '@/shared/upload/picked-files';
import { PickerInputs } from '@/shared/upload/components/picker-inputs';
import { FileIcon, FolderIcon, PlusIcon, UploadIcon, XIcon } from '@/components/send-icons';

interface FileSectionProps {
  readonly files: readonly PickedFile[];
  readonly summary: FilesSummary;
  /** the translated problem with the files, shown once the sender tried to send or is over the limit */
  readonly problem?: string;
  onAdd(files: PickedFile[]): void;
  onRemove(key: string): void;
  /** the voice memo and video recorder, shown under the pickers or the list */
  readonly recorder?: ReactNode;
}

/** File and folder pickers (real buttons, so no mouse or drag is needed) and the picked list. */
export const FileSection = forwardRef<HTMLDivElement, FileSectionProps>(function FileSection(
  { files, summary, problem, onAdd, onRemove, recorder },
  ref,
) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const onPicked = (event: ChangeEvent<HTMLInputElement>) => {
    const list = event.target.files;
    if (list && list.length > 0) onAdd(pickedFromFiles(list));
    // Cleared so picking the same file again (after removing it) fires change again.
    event.target.value = '';
  };

  const empty = files.length === 0;
  return (
    <div
      ref={ref}
      className={`qs-files${empty ? ' qs-files-empty' : ''}${problem ? ' qs-files-invalid' : ''}`}
      aria-describedby={problem ? 'qs-files-problem' : undefined}
    >
      <PickerInputs
        fileInput={fileInput}
        folderInput={folderInput}
        onPicked={onPicked}
        fileTestId="file-input"
        folderTestId="folder-input"
      />

      {empty ? (
        <div className="qs-files-start">
          <span className="qs-files-icon">
            <UploadIcon />
          </span>
          <p className="qs-files-title">{t('send.form.emptyTitle')}</p>
          <div className="qs-pickers">
            <button type="button" className="btn btn-primary btn-sm" onClick={() => fileInput.current?.click()}>
              <PlusIcon /> {t('send.form.addFiles')}
            </button>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => folderInput.current?.click()}>
              <FolderIcon /> {t('send.form.addFolder')}
            </button>
          </div>
          <p className="qs-hint">{t('send.form.dropHint')}</p>
        </div>
      ) : (
        <>
          <ul className="qs-file-list" aria-label={t('send.form.filesLabel')}>
            {files.map((file) => {
              const key = fileKey(file);
              const folder = file.itemPath ? file.itemPath.slice(0, file.itemPath.lastIndexOf('/') + 1) : '';
              return (
                <li
                  key={key}
                  className="qs-file"
                  data-testid="picked-file"
                  data-file-name={file.fileName}
                  data-file-size={file.size}
                >
                  {file.recording === 'voice' ? (
                    <MicIcon
                      className="qs-file-icon"
                      aria-label={t('send.recorder.voiceMemo')}
                      aria-hidden={undefined}
                      role="img"
                    />
                  ) : file.recording === 'video' ? (
                    <VideoIcon
                      className="qs-file-icon"
                      aria-label={t('send.recorder.video')}
                      aria-hidden={undefined}
                      role="img"
                    />
                  ) : (
                    <FileIcon className="qs-file-icon" />
                  )}
                  <span className="qs-file-name">
                    <span className="qs-file-title" title={key}>
                      {file.fileName}
                    </span>
                    <span className="qs-file-meta">
                      {formatBytes(file.size)}
                      {folder && <> · {folder}</>}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="qs-icon-button"
                    aria-label={t('send.form.removeFile', { name: key })}
                    onClick={() => onRemove(key)}
                  >
                    <XIcon />
                  </button>
                </li>
              );
            })}
          </ul>
          <div className="qs-files-bar">
            <div className="qs-pickers">
              <button type="button" className="qs-link-button" onClick={() => fileInput.current?.click()}>
                <PlusIcon /> {t('send.form.addMoreFiles')}
              </button>
              <button type="button" className="qs-link-button" onClick={() => folderInput.current?.click()}>
                <FolderIcon /> {t('send.form.addFolder')}
              </button>
            </div>
            <p className={`qs-files-total${summary.overLimit ? ' qs-error-text' : ''}`}>
              {t('send.form.fileCount', { count: summary.count })} ·{' '}
              {t('send.form.sizeOfLimit', { size: formatBytes(summary.bytes), limit: formatBytes(summary.limitBytes) })}
            </p>
          </div>
        </>
      )}
      {/* One place for both layouts: moving it would remount it and drop a recording under way. */}
      {recorder}
      {problem && (
        <p id="qs-files-problem" className="qs-field-error" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
});
