import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { dashPaths } from '@/app/dash-paths';
import { ApiError } from '@/lib/api';
import { useTransferDetail } from '../hooks/use-transfer-detail';
import { onTransferActivity } from '../hooks/use-transfer-list';
import { transferListCache } from '../list-cache';
import { TransferActions, type ActionNotice } from './transfer-actions';
import { FilesLabel } from './transfer-table';
import { TransferView } from './transfer-details';
import { LoadFailed } from './load-failed';
import { AccessSection } from './access-section';
import { LazyReviewSection } from './lazy-review-section';
import { expiryPhase, moreFiles } from '../transfer-format';

const invalidateLists = () => transferListCache().invalidate();

/** Where closing the modal goes: the page it was opened from, or the list with its filter. */
export interface ModalReturn {
  readonly returnTo?: string;
}

/**
 * The TransferModal (spec §2; route id TransferModal, /dash/transfers/:slug), a child of the
 * list so the list stays behind it. A modal <dialog>: the browser traps focus, Escape closes;
 * the close button and the backdrop do too, all returning to where it was opened from.
 */
export function TransferModal() {
  const { slug = '' } = useParams();
  const { t } = useTranslation('transfers');
  const navigate = useNavigate();
  const location = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { detail, loading, error, reload } = useTransferDetail(slug);
  const [notice, setNotice] = useState<ActionNotice | null>(null);

  useEffect(() => {
    const element = dialog.current;
    // No close() on cleanup: StrictMode's trial unmount would fire close and navigate away.
    if (element && !element.open) element.showModal();
  }, []);

  // Another transfer (a notification clicked while open) starts without the last one's message.
  useEffect(() => setNotice(null), [slug]);

  const returnTo = (location.state as ModalReturn | null)?.returnTo;
  const close = useCallback(() => {
    navigate(returnTo ?? dashPaths.transfers(location.search));
  }, [navigate, returnTo, location.search]);

  const onDeleted = useCallback(() => {
    transferListCache().invalidate({ removedSlug: slug });
    navigate(returnTo ?? dashPaths.transfers(location.search), { state: { notice: 'deleted' } });
  }, [navigate, returnTo, location.search, slug]);

  // after a change: the lists are stale, the detail reloads
  const refresh = useCallback(async () => {
    transferListCache().invalidate();
    await reload();
  }, [reload]);

  const notFound = error instanceof ApiError && (error.status === 404 || error.status === 403);
  return (
    <dialog
      ref={dialog}
      className="dash-modal tr-modal"
      aria-labelledby={titleId}
      aria-busy={loading || undefined}
      onClose={close}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) dialog.current?.close();
      }}
      data-testid="transfer-modal"
    >
      <div className="dash-modal-body tr-modal-body">
        <button
          type="button"
          className="dash-modal-close"
          aria-label={t('modal.close')}
          onClick={() => dialog.current?.close()}
          data-testid="transfer-modal-close"
        >
          <span aria-hidden="true">×</span>
        </button>
        {detail ? (
          <>
            <h2 id={titleId} className="tr-modal-title">
              <FilesLabel row={detail} />
            </h2>
            <TransferView detail={detail} {...(detail.readOnly ? {} : { onChanged: refresh })} />
            {/* the review's routes are the sender's (and their team admin's), as the actions are */}
            {!detail.readOnly && (
              <LazyReviewSection
                slug={detail.slug}
                link={detail.link}
                title={moreFiles(detail) > 0 ? `${detail.fileName} +${moreFiles(detail)}` : detail.fileName}
                expired={['expired', 'deleted'].includes(expiryPhase(detail, Date.now()))}
                enabled={detail.reviewSettings !== undefined}
                onChanged={invalidateLists}
                subscribe={onTransferActivity}
              />
            )}
            {!detail.readOnly && <AccessSection detail={detail} />}
            {detail.readOnly ? (
              // a team mate's shared transfer: view, download and copy the link only
              <p className="tr-notice" role="note" data-testid="transfer-shared-note">
                {t('modal.sharedReadOnly', { email: detail.senderEmail })}{' '}
                <a href={detail.link} target="_blank" rel="noopener noreferrer">
                  {t('modal.openDownload')}
                </a>
              </p>
            ) : (
              <TransferActions
                detail={detail}
                notice={notice}
                onNotice={setNotice}
                onChanged={refresh}
                onDeleted={onDeleted}
              />
            )}
          </>
        ) : (
          <>
            <h2 id={titleId} className="tr-modal-title">
              {t('modal.heading')}
            </h2>
            {loading ? (
              <p className="tr-empty" role="status">
                {t('modal.loading')}
              </p>
            ) : notFound ? (
              <p className="tr-notice tr-notice-error" role="alert" data-testid="transfer-not-found">
                {t('modal.notFound')}
              </p>
            ) : (
              <LoadFailed error={error} onRetry={() => void reload()} />
            )}
          </>
        )}
      </div>
    </dialog>
  );
}
