import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTACT_FIELD_MAX, type ContactRow } from '@domain/contacts-api';
import { editContact } from '../api/contacts-api';
import { useContactAction } from '../use-contact-action';
import { ContactDialog } from './contact-dialog';
import { ContactEmailInput } from './contact-email-input';

/** Edit name, company, or the address itself (then the contact moves to the new address). */
export function EditContactDialog({
  contact,
  onClose,
}: {
  contact: ContactRow;
  onClose(saved: ContactRow | null): void;
}) {
  const { t } = useTranslation('contacts');
  const id = useId();
  const [email, setEmail] = useState(contact.email);
  const [name, setName] = useState(contact.name ?? '');
  const [company, setCompany] = useState(contact.company ?? '');
  const action = useContactAction();
  const problem = action.error;
  const saved = useRef<ContactRow | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const valid = action.validEmail(email);
    if (valid === undefined) {
      return;
    }
    const form = event.target as HTMLFormElement;
    void action.run(async () => {
      saved.current = await editContact({
        email: contact.email,
        name: name.trim(),
        company: company.trim(),
        ...(valid !== contact.email ? { newEmail: valid } : {}),
      });
      form.closest('dialog')?.close();
    });
  };

  return (
    <ContactDialog title={t('edit.title')} testId="contact-edit-dialog" onDismiss={() => onClose(saved.current)}>
      {() => (
        <form onSubmit={submit} noValidate>
          <div className="ct-dialog-fields">
            <label htmlFor={`${id}-email`} className="ct-label">
              {t('fields.email')}
            </label>
            <ContactEmailInput
              id={`${id}-email`}
              value={email}
              onChange={setEmail}
              problem={problem}
              problemId={`${id}-problem`}
              testId="contact-edit-email"
            />
            <label htmlFor={`${id}-name`} className="ct-label">
              {t('fields.name')}
            </label>
            <input
              id={`${id}-name`}
              className="field-input"
              maxLength={CONTACT_FIELD_MAX}
              value={name}
              onChange={(e) => setName(e.target.value)}
              data-testid="contact-edit-name"
            />
            <label htmlFor={`${id}-company`} className="ct-label">
              {t('fields.company')}
            </label>
            <input
              id={`${id}-company`}
              className="field-input"
              maxLength={CONTACT_FIELD_MAX}
              value={company}
              onChange={(e) => setCompany(e.target.value)}
              data-testid="contact-edit-company"
            />
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
            <button type="submit" className="btn btn-primary" disabled={action.busy} data-testid="contact-edit-save">
              {action.busy ? t('edit.saving') : t('edit.save')}
            </button>
          </div>
        </form>
      )}
    </ContactDialog>
  );
}
