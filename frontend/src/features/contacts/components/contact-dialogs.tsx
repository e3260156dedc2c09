import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTACT_FIELD_MAX, contactEmailSchema, type ContactRow } from '@domain/contacts-api';
import { problemKeyOf } from '@/i18n/error-keys';
import { editContact, removeContact } from '../api/contacts-api';
import { useContactErrorText } from '../contact-errors';

/**
 * A modal <dialog> in the dashboard's style: showModal traps the focus, Escape and a backdrop
 * click close it, and the browser returns the focus to where it was (the page moves it on).
 */
function ContactDialog({ title, testId, alert, onDismiss, children }: { title: string; testId: string; alert?: boolean; onDismiss(): void; children(ids: { title: string; body: string }): ReactNode }) {
  const { t } = useTranslation('contacts');
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const element = ref.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dash-modal"
      aria-labelledby={`${id}-title`}
      {...(alert ? { role: 'alertdialog', 'aria-describedby': `${id}-body` } : {})}
      onClose={onDismiss}
      onClick={(event) => {
        if (event.target === event.currentTarget) ref.current?.close();
      }}
      data-testid={testId}
    >
      <div className="dash-modal-body">
        <button type="button" className="dash-modal-close" aria-label={t('dialog.close')} onClick={() => ref.current?.close()}>
          <span aria-hidden="true">×</span>
        </button>
        <h2 id={`${id}-title`}>{title}</h2>
        {children({ title: `${id}-title`, body: `${id}-body` })}
      </div>
    </dialog>
  );
}

/** Edit name, company, or the address itself (then the contact moves to the new address). */
export function EditContactDialog({ contact, onClose }: { contact: ContactRow; onClose(saved: ContactRow | null): void }) {
  const { t } = useTranslation('contacts');
  const { t: tApp } = useTranslation();
  const errorOf = useContactErrorText();
  const id = useId();
  const [email, setEmail] = useState(contact.email);
  const [name, setName] = useState(contact.name ?? '');
  const [company, setCompany] = useState(contact.company ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const saved = useRef<ContactRow | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const parsed = contactEmailSchema.safeParse(email);
    if (!parsed.success) {
      setProblem(tApp(problemKeyOf(parsed.error.issues[0]?.message)));
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      saved.current = await editContact({
        email: contact.email,
        name: name.trim(),
        company: company.trim(),
        ...(parsed.data !== contact.email ? { newEmail: parsed.data } : {}),
      });
      (event.target as HTMLFormElement).closest('dialog')?.close();
    } catch (err) {
      setProblem(errorOf(err));
      setBusy(false);
    }
  };

  return (
    <ContactDialog title={t('edit.title')} testId="contact-edit-dialog" onDismiss={() => onClose(saved.current)}>
      {() => (
        <form onSubmit={(e) => void submit(e)} noValidate>
          <div className="ct-dialog-fields">
            <label htmlFor={`${id}-email`} className="ct-label">
              {t('fields.email')}
            </label>
            <input
              id={`${id}-email`}
              type="email"
              className="field-input"
              value={email}
              required
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-problem` : undefined}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="contact-edit-email"
            />
            <label htmlFor={`${id}-name`} className="ct-label">
              {t('fields.name')}
            </label>
            <input id={`${id}-name`} className="field-input" maxLength={CONTACT_FIELD_MAX} value={name} onChange={(e) => setName(e.target.value)} data-testid="contact-edit-name" />
            <label htmlFor={`${id}-company`} className="ct-label">
              {t('fields.company')}
            </label>
            <input id={`${id}-company`} className="field-input" maxLength={CONTACT_FIELD_MAX} value={company} onChange={(e) => setCompany(e.target.value)} data-testid="contact-edit-company" />
          </div>
          {problem && (
            <p id={`${id}-problem`} className="ct-problem" role="alert">
              {problem}
            </p>
          )}
          <div className="dash-modal-actions ct-dialog-actions">
            <button type="button" className="btn btn-ghost" onClick={(e) => e.currentTarget.closest('dialog')?.close()}>
              {t('dialog.cancel')}
            </button>
            <button type="submit" className="btn btn-primary" disabled={busy} data-testid="contact-edit-save">
              {busy ? t('edit.saving') : t('edit.save')}
            </button>
          </div>
        </form>
      )}
    </ContactDialog>
  );
}

/** "Remove this contact?" (an alertdialog) with the address, Remove and Cancel. */
export function RemoveContactDialog({ contact, onClose }: { contact: ContactRow; onClose(removed: boolean): void }) {
  const { t } = useTranslation('contacts');
  const errorOf = useContactErrorText();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const removed = useRef(false);

  const confirm = async (dialog: HTMLDialogElement | null) => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      await removeContact(contact.email);
      removed.current = true;
      dialog?.close();
    } catch (err) {
      setProblem(errorOf(err));
      setBusy(false);
    }
  };

  return (
    <ContactDialog title={t('remove.title')} testId="contact-remove-dialog" alert onDismiss={() => onClose(removed.current)}>
      {(ids) => (
        <>
          <p id={ids.body}>{t('remove.body', { email: contact.email })}</p>
          {problem && (
            <p className="ct-problem" role="alert">
              {problem}
            </p>
          )}
          <div className="dash-modal-actions ct-dialog-actions">
            {/* Cancel first: the dialog's first focus lands on the harmless choice. */}
            <button type="button" className="btn btn-ghost" onClick={(e) => e.currentTarget.closest('dialog')?.close()} data-testid="contact-remove-cancel">
              {t('dialog.cancel')}
            </button>
            <button type="button" className="btn btn-primary ct-danger-solid" disabled={busy} onClick={(e) => void confirm(e.currentTarget.closest('dialog'))} data-testid="contact-remove-confirm">
              {busy ? t('remove.removing') : t('remove.confirm')}
            </button>
          </div>
        </>
      )}
    </ContactDialog>
  );
}
