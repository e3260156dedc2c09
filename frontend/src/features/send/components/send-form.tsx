import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ContactView } from '@domain/auth-api';
import { CUSTOM_DATE_MARKER } from '@domain/expiry';
import { MESSAGE_MAX_LENGTH } from '@domain/input-rules';
import { paths } from '@/app/paths';
import { LANGUAGE_TAGS, toLanguage } from '@/i18n/languages';
import { draftRules, loadDraftRules, type DraftRules } from '@/shared/send-form/draft-rules';
import { expiryKey } from '@/shared/send-form/labels';
import { useFileDrop } from '@/shared/upload/use-file-drop';
import {
  OPTION_TAB,
  commitRecipients,
  filesSummary,
  formIssues,
  issueFor,
  offendingField,
  removeFile,
  removeRecipient,
  setMessage,
  setRecording,
  setSenderEmail,
  shareableMembers,
  typeRecipients,
  uncheckedIssues,
  type FieldIssue,
  type FormField,
  type RecipientCommit,
  type SendForm,
  type SenderContext,
  type TeamMemberOption,
} from '@/shared/send-form/send-state';
import type { PickedFile } from '@/shared/upload/picked-files';
import { LazyRecorderPanel } from '../recorder/lazy-recorder-panel';
import { useShake } from '@/lib/use-shake';
import { useIssueText } from '../hooks/use-issue-text';
import { FileSection } from '@/shared/send-form/components/file-section';
import { OptionsPanel, type OptionTab } from './options-panel';
import { RecipientsField } from '@/shared/send-form/components/recipients-field';
import { CogIcon } from '@/components/send-icons';

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
  const {
    form,
    sender,
    teamMembers,
    contacts,
    resumable,
    onChange,
    onAddFiles,
    onRecipientsOverLimit,
    onUnreadable,
    onSubmit,
    onCheckFailed,
    onResume,
  } = props;
  const { t, i18n } = useTranslation();
  const issueText = useIssueText(sender.role);
  const shake = useShake();
  const ids = useId();
  const [now, setNow] = useState(() => Date.now());
  const [attempted, setAttempted] = useState(false);
  const [optionsOpen, setOptionsOpen] = useState(false);
  const [tab, setTab] = useState<OptionTab>('link');
  const pendingShake = useRef<FormField | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // The draft schema (zod) is not part of the page's first load: it loads on the sender's first
  // interaction with the form, and a submit waits for it (draft-rules.ts).
  const [rules, setRules] = useState<DraftRules | null>(draftRules);

  const refs = {
    files: useRef<HTMLDivElement>(null),
    recipients: useRef<HTMLDivElement>(null),
    senderEmail: useRef<HTMLDivElement>(null),
    message: useRef<HTMLDivElement>(null),
    sendAs: useRef<HTMLDivElement>(null),
    expiry: useRef<HTMLDivElement>(null),
    password: useRef<HTMLDivElement>(null),
  } satisfies Record<FormField, unknown>;

  // Custom-date bounds move with the clock; a minute is the picker's resolution.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    const element = formRef.current;
    if (rules || !element) return;
    let live = true;
    const load = () => {
      loadDraftRules().then(
        (loaded) => {
          if (live) setRules(loaded);
        },
        () => undefined,
      );
    };
    const events = ['focusin', 'pointerdown', 'keydown', 'dragenter'] as const;
    for (const type of events) element.addEventListener(type, load, { once: true, passive: true });
    return () => {
      live = false;
      for (const type of events) element.removeEventListener(type, load);
    };
  }, [rules]);

  // Until the schema has loaded, the issues known without it (no file yet, an invalid recipient
  // text), and the form is not sendable: the first render of an empty form shows what it always did.
  const issues: FieldIssue[] = rules ? formIssues(form, sender, now, rules) : uncheckedIssues(form, sender);
  const valid = rules !== null && issues.length === 0;
  const summary = filesSummary(form, sender.role);
  const members = shareableMembers(teamMembers, sender.email);
  const expirySummary = useExpirySummary(form, i18n.resolvedLanguage ?? 'en');
  // Field messages wait for the first send attempt; the blocked button explains itself before that.
  const problemFor = (field: FormField): string | undefined => {
    const issue = issueFor(issues, field);
    return issue && attempted ? issueText(issue) : undefined;
  };

  // An option field lives in a tab that may be closed: open it, then shake once it is drawn.
  useEffect(() => {
    const field = pendingShake.current;
    if (!field) return;
    pendingShake.current = null;
    shake(refs[field].current);
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNow(Date.now());
    // An address still in the recipient box is committed first (as blur would have done).
    let ready = form;
    if (form.sendAs === 'email' && form.recipientDraft.trim() !== '') {
      const committed = commitRecipients(form, form.recipientDraft, sender.role);
      onCommitted(committed);
      ready = committed.form;
    }
    const loaded = draftRules();
    if (loaded) {
      check(ready, loaded);
      return;
    }
    loadDraftRules().then(
      (fresh) => {
        setRules(fresh);
        check(ready, fresh);
      },
      () => onCheckFailed(),
    );
  };

  /** A submit, checked by the draft schema: sent, or the first offending field shakes. */
  const check = (ready: SendForm, loaded: DraftRules) => {
    const field = offendingField(formIssues(ready, sender, Date.now(), loaded));
    if (!field) {
      onSubmit(ready);
      return;
    }
    setAttempted(true);
    const optionTab = OPTION_TAB[field];
    if (optionTab && (!optionsOpen || tab !== optionTab)) {
      setOptionsOpen(true);
      setTab(optionTab);
      pendingShake.current = field;
    } else {
      shake(refs[field].current);
    }
  };

  const onCommitted = (result: RecipientCommit) => {
    onChange(() => result.form);
    if (result.overLimit) onRecipientsOverLimit();
  };

  const drop = useFileDrop(onAddFiles, onUnreadable);

  const submitWhy = issues[0] ? issueText(issues[0]) : undefined;

  return (
    <form
      ref={formRef}
      className="qs-form"
      noValidate
      onSubmit={submit}
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

      {resumable && (
        <div className="qs-resume" role="status">
          <div>
            <p className="qs-resume-title">{t('send.form.resumeTitle')}</p>
            <p className="qs-hint">{t('send.form.resumeBody')}</p>
          </div>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onResume} data-testid="resume-button">
            {t('send.form.resumeAction')}
          </button>
        </div>
      )}

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

      {!sender.signedIn && (
        <Field label={t('send.form.senderEmailLabel')} fieldRef={refs.senderEmail} problem={problemFor('senderEmail')}>
          {(inputId, describedBy) => (
            <>
              <input
                id={inputId}
                className="qs-input"
                type="email"
                inputMode="email"
                autoComplete="email"
                autoCapitalize="none"
                spellCheck={false}
                value={form.senderEmail}
                placeholder={t('send.form.senderEmailPlaceholder')}
                aria-invalid={problemFor('senderEmail') ? true : undefined}
                aria-describedby={`${describedBy} ${inputId}-hint`}
                onChange={(e) => onChange((f) => setSenderEmail(f, e.target.value))}
                data-testid="sender-email"
              />
              <p id={`${inputId}-hint`} className="qs-hint">
                {t('send.form.senderEmailHint')} <Link to={paths.pricing()}>{t('send.form.avoidVerifying')}</Link>
              </p>
            </>
          )}
        </Field>
      )}

      <Field label={t('send.form.messageLabel')} fieldRef={refs.message} problem={problemFor('message')}>
        {(inputId, describedBy) => (
          <>
            <textarea
              id={inputId}
              className="qs-input qs-textarea"
              rows={2}
              maxLength={MESSAGE_MAX_LENGTH}
              value={form.message}
              placeholder={t('send.form.messagePlaceholder')}
              aria-describedby={`${describedBy} ${inputId}-count`}
              onChange={(e) => onChange((f) => setMessage(f, e.target.value))}
              data-testid="message"
            />
            <p id={`${inputId}-count`} className="qs-counter">
              {t('send.form.messageCounter', { used: form.message.length, max: MESSAGE_MAX_LENGTH })}
            </p>
          </>
        )}
      </Field>

      {optionsOpen && (
        <OptionsPanel
          id={`${ids}-options`}
          form={form}
          sender={sender}
          members={members}
          tab={tab}
          now={now}
          problems={{ sendAs: problemFor('sendAs'), expiry: problemFor('expiry'), password: problemFor('password') }}
          fieldRefs={{ sendAs: refs.sendAs, expiry: refs.expiry, password: refs.password }}
          onTab={setTab}
          onChange={onChange}
        />
      )}

      <div className="qs-footer">
        <button
          type="button"
          className={`qs-cog${optionsOpen ? ' qs-cog-open' : ''}`}
          aria-expanded={optionsOpen}
          aria-controls={`${ids}-options`}
          aria-label={t('send.form.options')}
          onClick={() => setOptionsOpen((open) => !open)}
          data-testid="options-toggle"
        >
          <CogIcon />
        </button>
        <p className="qs-summary" data-testid="send-summary">
          <span>{expirySummary}</span>
          <span aria-hidden="true"> · </span>
          <span>{form.password ? t('send.summary.withPassword') : t('send.summary.noPassword')}</span>
        </p>
        {/* aria-disabled, not disabled: a click on the blocked button still arrives and shakes the field. */}
        <span className="qs-submit-area" data-testid="send-submit-area">
          <button
            type="submit"
            className="btn btn-primary qs-submit"
            aria-disabled={!valid}
            aria-describedby={submitWhy ? `${ids}-why` : undefined}
            data-testid="send-submit"
          >
            {form.sendAs === 'link' ? t('send.form.submitLink') : t('send.form.submitEmail')}
          </button>
        </span>
        {submitWhy && (
          <span id={`${ids}-why`} className="sr-only">
            {submitWhy}
          </span>
        )}
      </div>
    </form>
  );
}

function Field({
  label,
  fieldRef,
  problem,
  children,
}: {
  label: string;
  fieldRef: RefObject<HTMLDivElement | null>;
  problem?: string;
  children(inputId: string, describedBy: string): ReactNode;
}) {
  const id = useId();
  const problemId = `${id}-problem`;
  return (
    <div ref={fieldRef} className={`qs-field${problem ? ' qs-field-invalid' : ''}`}>
      <label htmlFor={id} className="qs-label">
        {label}
      </label>
      {children(id, problem ? problemId : '')}
      {problem && (
        <p id={problemId} className="qs-field-error">
          {problem}
        </p>
      )}
    </div>
  );
}

/** Footer text: 'Expires in 1 Week', or the custom date in the reader's language. */
function useExpirySummary(form: SendForm, language: string): string {
  const { t } = useTranslation();
  if (form.expirySeconds !== CUSTOM_DATE_MARKER)
    return t('send.summary.expiresIn', { period: t(`send.expiry.${expiryKey(form.expirySeconds)}`) });
  if (form.customExpiryDate === null) return t('send.summary.pickDate');
  const date = new Intl.DateTimeFormat(LANGUAGE_TAGS[toLanguage(language)], {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(form.customExpiryDate);
  return t('send.summary.expiresOn', { date });
}
