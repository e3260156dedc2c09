import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { dashPaths } from '@/app/dash-paths';
import { usePageTitle } from '@/lib/use-page-title';
import { DeleteUploadDialog } from './delete-upload-dialog';
import { RequestDetailHead } from './request-detail-head';
import { UploadCard } from './upload-card';
import { useRequestDetail } from './use-request-detail';
import '@/styles/transfers.css';
import '../requests.css';

/**
 * /dash/requests/:slug (spec §2): the request (title, link to copy, state, due date, close or
 * reopen) and every visitor's upload: who, when, their message and files, each file's download,
 * "Download all" as a ZIP, and deleting an upload after a confirmation.
 */
export function RequestDetailPage() {
  const { slug = '' } = useParams();
  const { t } = useTranslation('requests');
  const ids = useId();
  const page = useRequestDetail(slug);
  const { valid, load, detail } = page;
  usePageTitle(detail ? detail.request.title : t('detail.pageTitle'));

  if (valid && load.state === 'loading') return <PageLoading />;
  if (!detail) {
    return (
      <div className="container dash-page rq-page">
        <p>
          <Link to={dashPaths.requests()}>{t('detail.back')}</Link>
        </p>
        <div className="card tr-empty" role="alert" data-testid="request-detail-missing">
          <p>{valid && load.state === 'failed' ? t('detail.loadFailed') : t('detail.notFound')}</p>
          {valid && load.state === 'failed' && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={load.reload}>
              {t('list.retry')}
            </button>
          )}
        </div>
      </div>
    );
  }

  const { request, uploads } = detail;
  return (
    <div className="container dash-page rq-page" data-testid="request-detail">
      <p className="rq-back">
        <Link to={dashPaths.requests()}>{t('detail.back')}</Link>
      </p>
      <RequestDetailHead
        request={request}
        headingRef={page.heading}
        saving={page.saving}
        notice={page.notice}
        onSetState={(state) => void page.setState(state)}
      />

      <section className="rq-uploads" aria-labelledby={`${ids}-uploads`}>
        <h2 id={`${ids}-uploads`}>{t('detail.uploadsTitle')}</h2>
        {uploads.length === 0 ? (
          <p className="card tr-empty" data-testid="request-no-uploads">
            {t('detail.noUploads')}
          </p>
        ) : (
          uploads.map((u) => <UploadCard key={u.slug} upload={u} onDelete={page.askDelete} />)
        )}
      </section>

      {page.confirming && (
        <DeleteUploadDialog
          upload={page.confirming}
          dialogRef={page.dialog}
          deleting={page.deleting}
          onConfirm={() => void page.confirmDelete()}
          onClosed={page.dialogClosed}
        />
      )}
    </div>
  );
}
