import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { dedupeFiles, fileKey, totalSize } from '@domain/file-filters';
import { isRegionId } from '@domain/regions';
import { formatSize } from '@/lib/format-size';
import { pickedFromFiles } from '@/shared/upload/picked-files';
import type { PickedFile } from '@/shared/upload/picked-files';
import type { UploadProgress } from '@/shared/upload/engine';
import { importWithRetry } from '@/lib/import-with-retry';
import { PickerInputs } from '@/shared/upload/components/picker-inputs';
import { planAddedFiles } from '../api/transfers-api';
import { PanelForm, type PanelProps } from './panel-form';

/**
 * TransferModal add-files mode (spec §4): pick files or folders, PATCH /transfers/addFiles
 * plans them in the transfer's own region, the send form's upload engine sends them (no resume
 * checkpoint: that belongs to new sends), POST /transfers/{id}/complete finishes, the detail
 * reloads, and the modal says 'Your transfer has been updated.'
 */
export function AddFilesPanel({ detail, run, busy, onCancel }: PanelProps) {
  const { t, i18n } = useTranslation('transfers');
  const lng = i18n.resolvedLanguage ?? 'en';
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<readonly PickedFile[]>([]);
  const [duplicates, setDuplicates] = useState<readonly string[]>([]);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const abort = useRef<AbortController | null>(null);

  // Closing the modal mid-upload stops the requests in flight.
  useEffect(() => () => abort.current?.abort(), []);

  const onPicked = (event: ChangeEvent<HTMLInputElement>) => {
    const list = event.target.files;
    if (list && list.length > 0) {
      const { kept, duplicates: dropped } = dedupeFiles(pickedFromFiles(list), [...detail.files, ...picked]);
      setPicked((p) => [...p, ...kept]);
      setDuplicates(dropped.map(fileKey));
    }
    // Cleared so picking the same file again (after removing it) fires change again.
    event.target.value = '';
  };

  const upload = () =>
    run(async () => {
      const controller = new AbortController();
      abort.current = controller;
      const created = await planAddedFiles({
        slug: detail.slug,
        // The files stay in the transfer's region (spec §4); the server refuses any other.
        ...(isRegionId(detail.region) ? { region: detail.region } : {}),
        fileObjects: picked.map((f) =>
          f.itemPath
            ? { fileName: f.fileName, size: f.size, itemPath: f.itemPath }
            : { fileName: f.fileName, size: f.size },
        ),
      });
      const flow = await importWithRetry(() => import('@/shared/upload/send-flow'));
      await flow.uploadNewTransfer(
        created,
        picked,
        { signal: controller.signal, onProgress: setProgress, onWarning: () => undefined },
        { storage: null },
      );
      setPicked([]);
      return t('addFiles.done');
    }).finally(() => setProgress(null));

  const percent =
    progress && progress.bytesTotal > 0 ? Math.floor((progress.bytesDone / progress.bytesTotal) * 100) : 0;
  return (
    <PanelForm
      title={t('addFiles.title')}
      submit={t('addFiles.upload')}
      busy={busy}
      canSubmit={picked.length > 0}
      onSubmit={() => void upload()}
      onCancel={onCancel}
    >
      <PickerInputs fileInput={fileInput} folderInput={folderInput} onPicked={onPicked} fileTestId="add-files-input" />
      <div className="tr-pickers">
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => fileInput.current?.click()}
          disabled={busy}
          data-testid="add-files-pick"
        >
          {t('addFiles.pickFiles')}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          onClick={() => folderInput.current?.click()}
          disabled={busy}
        >
          {t('addFiles.pickFolder')}
        </button>
      </div>
      {picked.length === 0 ? (
        <p className="muted">{t('addFiles.none')}</p>
      ) : (
        <>
          <ul className="tr-files" aria-label={t('addFiles.listLabel')} data-testid="add-files-list">
            {picked.map((file) => (
              <li key={fileKey(file)}>
                <span className="tr-break">{file.itemPath ?? file.fileName}</span>
                <span className="muted tr-nowrap">{formatSize(file.size, lng)}</span>
                <button
                  type="button"
                  className="tr-icon-button"
                  aria-label={t('addFiles.remove', { name: file.fileName })}
                  disabled={busy}
                  onClick={() => setPicked((p) => p.filter((f) => fileKey(f) !== fileKey(file)))}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
          <p className="muted">
            {t('addFiles.total', { count: picked.length, size: formatSize(totalSize(picked), lng) })}
          </p>
        </>
      )}
      {duplicates.length > 0 && <p className="tr-hint">{t('addFiles.duplicates', { names: duplicates.join(', ') })}</p>}
      {progress && (
        <div className="tr-progress">
          <div
            className="tr-progress-bar"
            role="progressbar"
            aria-label={t('addFiles.progressLabel')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <span style={{ width: `${Math.max(3, percent)}%` }} />
          </div>
          <span className="muted">{t('addFiles.uploading', { percent })}</span>
        </div>
      )}
    </PanelForm>
  );
}
