import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactView } from '@domain/auth-api';
import { useFileDrop } from '@/shared/upload/use-file-drop';
import {
  commitRecipients,
  filesSummary,
  removeFile,
  removeRecipient,
  setMessage,
  setRecording,
  setSenderEmail,
  shareableMembers,
  typeRecipients,
  type SendForm,
  type SenderContext,
  type TeamMemberOption,
} from '@/shared/send-form/send-state';
import type { PickedFile } from '@/shared/upload/picked-files';
import { LazyRecorderPanel } from '../recorder/lazy-recorder-panel';
import { FileSection } from '@/shared/send-form/components/file-section';
import { LazyOptionsPanel } from './lazy-options-panel';
import { RecipientsField } from '@/shared/send-form/components/recipients-field';
import { MessageField } from './message-field';
import { ResumeNotice } from './resume-notice';
import { SendFormFooter } from './send-form-footer';
import { SenderEmailField } from './sender-email-field';
import { useSendForm } from './use-send-form';

interface SendFormViewProps {
  readonly form: SendForm;
  readonly sender: SenderContext;
  readonly teamMembers?: readonly TeamMemberOption[];
  /** a signed-in sender's contacts, suggested in the recipient box */
  readonly contacts?: readonly ContactView[];
  /** the picked files continue an unfinished upload: offer to resume it */
  readonly resumable: boolean;
  onChange(update: (form: SendForm) => SendForm): void;
  onAddFiles(files: PickedFile[]): void;
  /** a recipient commit reached the plan's cap */
  onRecipientsOverLimit(): void;
  /** some dropped files could not be read */
  onUnreadable(names: string[]): void;
  /** the form to send, with any address still in the recipient box committed */
  onSubmit(form: SendForm): void;
  /** the draft schema could not be loaded to check a submit (the connection is down) */
  onCheckFailed(): void;
  onResume(): void;
}

/** The quick-send form (spec §2): files, recipients, sender, message, options, summary and submit. */
export function SendFormView(props: SendFormViewProps) {
  const { form, sender, teamMembers, contacts, resumable, onChange, onAddFiles, onUnreadable, onResume } = props;
  const { t } = useTranslation();
  const ids = useId();
  const state = useSendForm(form, sender, props);
  const { refs, problemFor, onCommitted } = state;
  const summary = filesSummary(form, sender.role);
  const members = shareableMembers(teamMembers, sender.email);
  const drop = useFileDrop(onAddFiles, onUnreadable);

  return (
    <form
      ref={state.formRef}
      className="qs-form"
      noValidate
      onSubmit={state.submit}
      {...drop.handlers}
      aria-labelledby={`${ids}-title`}
    >
      <h2 id={`${ids}-title`} className="qs-title" tabIndex={-1} data-step-heading>
        {t('send.heading')}
      </h2>
      {drop.dragging && (
        <div className="qs-drop-overlay" aria-hidden="true">
          {t('send.form.dropHere')}
        </div>
      )}

      <FileSection
        ref={refs.files}
        files={form.files}
        summary={summary}
        problem={summary.overLimit ? t('send.errors.transferTooLarge') : problemFor('files')}
        onAdd={onAddFiles}
        onRemove={(key) => onChange((f) => removeFile(f, key))}
        recorder={
          <LazyRecorderPanel
            onStarted={(kind) => onChange((f) => setRecording(f, kind, null))}
            onRecorded={(recording) => onChange((f) => setRecording(f, recording.kind, recording))}
          />
        }
      />

      {resumable && <ResumeNotice onResume={onResume} />}

      {form.sendAs === 'email' && (
        <RecipientsField
          ref={refs.recipients}
          recipients={form.recipients}
          draft={form.recipientDraft}
          invalid={form.recipientInvalid}
          problem={form.recipientInvalid ? undefined : problemFor('recipients')}
          onType={(text) => onCommitted(typeRecipients(form, text, sender.role))}
          onCommit={(text) => onCommitted(commitRecipients(form, text, sender.role))}
          onRemove={(email) => onChange((f) => removeRecipient(f, email))}
          contacts={contacts}
        />
      )}
      {form.sendAs === 'email' && (
        <label className="qs-choice qs-mail-now">
          <input
            type="checkbox"
            checked={form.mailNow === true}
            onChange={(e) => {
              const mailNow = e.target.checked;
              onChange((f) => ({ ...f, mailNow }));
            }}
            data-testid="mail-now"
          />
          <span>{t('send.live.mailNow')}</span>
        </label>
      )}

      {!sender.signedIn && (
        <SenderEmailField
          fieldRef={refs.senderEmail}
          value={form.senderEmail}
          problem={problemFor('senderEmail')}
          onChange={(value) => onChange((f) => setSenderEmail(f, value))}
        />
      )}

      <MessageField
        fieldRef={refs.message}
        value={form.message}
        problem={problemFor('message')}
        onChange={(value) => onChange((f) => setMessage(f, value))}
      />

      {state.optionsOpen && (
        <LazyOptionsPanel
          id={`${ids}-options`}
          form={form}
          sender={sender}
          members={members}
          tab={state.tab}
          now={state.now}
          problems={{
            sendAs: problemFor('sendAs'),
            expiry: problemFor('expiry'),
            password: problemFor('password'),
            e2e: problemFor('e2e'),
          }}
          fieldRefs={{ sendAs: refs.sendAs, expiry: refs.expiry, password: refs.password, e2e: refs.e2e }}
          onTab={state.setTab}
          onChange={onChange}
        />
      )}

      <SendFormFooter
        ids={ids}
        form={form}
        optionsOpen={state.optionsOpen}
        valid={state.valid}
        submitWhy={state.submitWhy}
        onToggleOptions={state.toggleOptions}
      />
    </form>
  );
}
