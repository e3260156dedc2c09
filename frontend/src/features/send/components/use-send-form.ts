import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useShake } from '@/lib/use-shake';
import { draftRules, loadDraftRules, type DraftRules } from '@/shared/send-form/draft-rules';
import {
  OPTION_TAB,
  commitRecipients,
  formIssues,
  issueFor,
  offendingField,
  uncheckedIssues,
  type FieldIssue,
  type FormField,
  type RecipientCommit,
  type SendForm,
  type SenderContext,
} from '@/shared/send-form/send-state';
import { useIssueText } from '../hooks/use-issue-text';
import type { OptionTab } from './options-panel';
import { preloadOptionsPanel } from './lazy-options-panel';

interface SendFormCallbacks {
  onChange(update: (form: SendForm) => SendForm): void;
  onRecipientsOverLimit(): void;
  onSubmit(form: SendForm): void;
  onCheckFailed(): void;
}

/**
 * The quick-send form's state: the clock for custom dates, the lazily loaded draft schema, the
 * options panel, the issues shown after a first attempt, and the submit that shakes the first
 * offending field (opening its option tab first when it lives in one).
 */
export function useSendForm(form: SendForm, sender: SenderContext, callbacks: SendFormCallbacks) {
  const { onChange, onRecipientsOverLimit, onSubmit, onCheckFailed } = callbacks;
  const issueText = useIssueText(sender.role);
  const shake = useShake();
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
    e2e: useRef<HTMLDivElement>(null),
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
      preloadOptionsPanel().catch(() => undefined);
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

  const onCommitted = (result: RecipientCommit) => {
    onChange(() => result.form);
    if (result.overLimit) onRecipientsOverLimit();
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

  return {
    formRef,
    refs,
    now,
    valid,
    optionsOpen,
    toggleOptions: () => setOptionsOpen((open) => !open),
    tab,
    setTab,
    problemFor,
    submitWhy: issues[0] ? issueText(issues[0]) : undefined,
    submit,
    onCommitted,
  };
}
