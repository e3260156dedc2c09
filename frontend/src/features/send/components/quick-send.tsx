import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ContactView } from '@domain/auth-api';
import type { CompleteResponse } from '@domain/transfer-api';
import { paths } from '@/app/paths';
import { useIssueText } from '../hooks/use-issue-text';
import { DoneView } from './done-view';
import { LiveLink } from './live-link';
import { ProgressView } from '@/shared/upload/components/progress-view';
import { SendFormView } from './send-form';
import { ToastStack } from '@/components/toast-stack';
import { VerifyStep } from '@/shared/upload/components/verify-step';
import { useQuickSend, type QuickSendSession } from './use-quick-send';
import '@/shared/send-form/quick-send.css';

/**
 * Quick send (spec §2, §4): the form, the guest's email verification, the upload's progress
 * and the done view, with the notifications of §8.
 */
interface QuickSendProps {
  readonly session?: QuickSendSession;
  /** the signed-in sender's contacts, suggested as recipients */
  readonly contacts?: readonly ContactView[];
  /** a transfer finished (the dashboard then reloads the user's usage) */
  onSent?(result: CompleteResponse): void;
  /** an upload (or its resume) started: home stops its made-up example activity then */
  onUploadStart?(): void;
}

export function QuickSend({ session, contacts, onSent, onUploadStart }: QuickSendProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const send = useQuickSend({ session, onSent, onUploadStart });
  const { form, step, progress, done, sender } = send;
  const { push } = send.toasts;
  const issueText = useIssueText(sender.role);

  return (
    <div ref={send.card} className="qs-card" data-testid="quick-send" data-step={step}>
      {step === 'form' && (
        <SendFormView
          form={form}
          sender={sender}
          teamMembers={session?.teamMembers}
          contacts={session ? contacts : undefined}
          resumable={send.checkpoint !== null}
          onChange={send.setForm}
          onAddFiles={send.addPicked}
          onRecipientsOverLimit={() =>
            push({
              kind: 'info',
              title: t('send.toast.tooManyPeople'),
              body: issueText({ code: 'too_many_recipients' }),
              action: send.trialAction,
            })
          }
          onUnreadable={(names) =>
            push({
              kind: 'warning',
              title: t('send.toast.fileLocked'),
              body: `${t('send.toast.fileLockedBody')}: ${names.join(', ')}`,
            })
          }
          onSubmit={send.submit}
          onCheckFailed={() =>
            push({ kind: 'error', title: t('send.toast.connectionError'), body: t('send.toast.connectionTrouble') })
          }
          onResume={() => void send.startResume()}
        />
      )}
      {step === 'verify' && (
        <VerifyStep
          email={form.senderEmail.trim().toLowerCase()}
          lang={send.lang}
          onVerified={(senderToken) => void send.startSend({ kind: 'guest', senderToken }, form)}
          onBack={() => send.setStep('form')}
        />
      )}
      {step === 'uploading' && progress && (
        <ProgressView progress={progress} onCancel={send.cancel}>
          {send.live && (
            <LiveLink link={send.live.link} mailed={send.live.mailed} sealed={send.sealed?.mode === 'link'} />
          )}
        </ProgressView>
      )}
      {step === 'done' && done && (
        <DoneView
          link={done.link}
          recipients={done.recipients}
          signedIn={sender.signedIn}
          sealed={send.sealed?.mode}
          onSendAnother={send.again}
          onKeepFiles={() => navigate(paths.pricing({ plan: 'premium' }))}
        />
      )}
      <ToastStack toasts={send.toasts.toasts} onDismiss={send.toasts.dismiss} />
    </div>
  );
}
