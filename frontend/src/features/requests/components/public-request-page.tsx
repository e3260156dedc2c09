import { useMemo, useRef, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ToastStack } from '@/components/toast-stack';
import { usePageTitle } from '@/lib/use-page-title';
import { useToasts } from '@/lib/use-toasts';
import { sendFlow } from '@/shared/upload/active-upload';
import { findCheckpoint, type UploadCheckpoint } from '@/shared/upload/checkpoint';
import { ProgressView } from '@/shared/upload/components/progress-view';
import { VerifyStep } from '@/shared/upload/components/verify-step';
import type { PickedFile } from '@/shared/upload/picked-files';
import { usePublicRequest } from '../hooks/use-public-request';
import { useRequestUpload } from '../hooks/use-request-upload';
import { useVisitorDraft } from '../hooks/use-visitor-draft';
import { requestCheckpointStorage } from '../request-checkpoints';
import { effectiveRules } from '../request-rules';
import { RequestDone } from './request-done';
import { RequestIntro } from './request-intro';
import { RequestLoading, RequestStatePanel } from './request-state-panel';
import { RequestUploadForm } from './request-upload-form';
import '@/shared/send-form/quick-send.css';
import '../requests.css';

/**
 * The public file request page /r/{id} (spec §2, §6): who asks, what for, until when and under
 * which rules; the visitor adds files or folders, says who they are, verifies their address
 * with the mailed 5-digit code, and uploads with the send form's resumable engine.
 */
export function PublicRequestPage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('requests');
  const { t: tApp } = useTranslation();
  const lang = i18n.resolvedLanguage ?? 'en';
  const { load, setLoad, retry } = usePublicRequest(id);
  const draft = useVisitorDraft();
  const card = useRef<HTMLDivElement>(null);
  const { toasts, push, dismiss } = useToasts();

  const request = load.status === 'ready' ? load.request : null;
  usePageTitle(request ? request.title : t('public.pageTitle'));

  const { files } = draft;
  const rules = useMemo(() => (request ? effectiveRules(request) : null), [request]);
  // A reload mid-upload leaves a checkpoint (under this request's own key): picking the same
  // files again offers to carry on where it stopped.
  const storage = useMemo(() => requestCheckpointStorage(id), [id]);
  const upload = useRequestUpload({
    request,
    files,
    details: draft.details,
    lang,
    storage,
    card,
    push,
    onClosed: setLoad,
  });
  const { step } = upload;
  const checkpoint: UploadCheckpoint | null = useMemo(
    () => (step === 'form' && files.length > 0 ? findCheckpoint(files, Date.now(), storage) : null),
    [files, step, storage],
  );

  const addPicked = (incoming: PickedFile[]) => {
    draft.add(incoming);
    upload.setFormError(null);
    sendFlow().catch(() => undefined);
  };
  const unreadable = (names: string[]) =>
    push({
      kind: 'warning',
      title: tApp('send.toast.fileLocked'),
      body: `${tApp('send.toast.fileLockedBody')}: ${names.join(', ')}`,
    });

  if (load.status === 'loading') return <RequestLoading />;
  if (load.status !== 'ready' || !request || !rules) return <RequestStatePanel load={load} onRetry={retry} />;

  // A requester without a name on their profile (nor a company) is not named.
  const named = request.requesterName.trim() !== '';
  // the requester's accent colour on the page's buttons (text black or white, chosen by the server)
  const accent = request.branding?.accentColor;
  const brandStyle = accent
    ? ({
        '--brand-accent': accent,
        '--brand-accent-text': request.branding?.accentTextColor ?? '#fff',
      } as CSSProperties)
    : undefined;

  return (
    <main
      className={accent ? 'container rq-public rq-branded' : 'container rq-public'}
      style={brandStyle}
      data-testid="request-page"
    >
      <div className="rq-public-grid">
        <RequestIntro request={request} rules={rules} named={named} lang={lang} />
        <div ref={card} className="qs-card rq-card" data-testid="request-upload" data-step={step}>
          {step === 'form' && (
            <RequestUploadForm
              draft={draft}
              rules={rules}
              checkpoint={checkpoint}
              formError={upload.formError}
              onAdd={addPicked}
              onUnreadable={unreadable}
              onResume={(from) => void upload.resume(from)}
              onValid={() => {
                upload.setFormError(null);
                upload.setStep('verify');
              }}
            />
          )}
          {step === 'verify' && (
            <VerifyStep
              email={draft.details.email.trim().toLowerCase()}
              lang={lang}
              onVerified={(token) => void upload.upload(token)}
              onBack={() => upload.setStep('form')}
            />
          )}
          {step === 'uploading' && upload.progress && (
            <ProgressView progress={upload.progress} onCancel={upload.cancel} />
          )}
          {step === 'done' && (
            <RequestDone
              requesterName={request.requesterName}
              named={named}
              count={files.length}
              onMore={() => {
                draft.startOver();
                upload.setStep('form');
              }}
            />
          )}
          <ToastStack toasts={toasts} onDismiss={dismiss} />
        </div>
      </div>
    </main>
  );
}
