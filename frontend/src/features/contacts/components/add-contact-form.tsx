import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTACT_FIELD_MAX, type ContactRow } from '@domain/contacts-api';
import { addContact } from '../api/contacts-api';
import { useContactAction } from '../use-contact-action';
import { ContactEmailInput } from './contact-email-input';

/** The add form: email (required, checked as the server checks it), name and company. */
export function AddContactForm({ onAdded }: { onAdded(contact: ContactRow): void }) {
  const { t } = useTranslation('contacts');
  const id = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [company, setCompany] = useState('');
  const action = useContactAction();
  const problem = action.error;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (action.busy) return;
    const valid = action.validEmail(email);
    if (valid === undefined) {
      emailRef.current?.focus();
      return;
    }
    // the focus goes back to the address, added or refused
    const focus = () => emailRef.current?.focus();
    void action.run(
      async () => {
        const contact = await addContact({
          email: valid,
          ...(name.trim() ? { name } : {}),
          ...(company.trim() ? { company } : {}),
        });
        setEmail('');
        setName('');
        setCompany('');
        onAdded(contact);
        focus();
      },
      { onError: focus },
    );
  };

  return (
    <form
      className="card ct-add"
      onSubmit={submit}
      noValidate
      aria-labelledby={`${id}-title`}
      data-testid="contact-add-form"
    >
      <h2 id={`${id}-title`} className="ct-subtitle">
        {t('add.title')}
      </h2>
      <div className="ct-add-fields">
        <div className="ct-field">
          <label htmlFor={`${id}-email`} className="ct-label">
            {t('fields.email')}
          </label>
          <ContactEmailInput
            id={`${id}-email`}
            inputRef={emailRef}
            noAutoComplete
            value={email}
            onChange={setEmail}
            problem={problem}
            problemId={`${id}-problem`}
            testId="contact-add-email"
          />
        </div>
        <div className="ct-field">
          <label htmlFor={`${id}-name`} className="ct-label">
            {t('fields.name')} <span className="ct-optional">{t('fields.optional')}</span>
          </label>
          <input
            id={`${id}-name`}
            className="field-input"
            autoComplete="off"
            maxLength={CONTACT_FIELD_MAX}
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-testid="contact-add-name"
          />
        </div>
        <div className="ct-field">
          <label htmlFor={`${id}-company`} className="ct-label">
            {t('fields.company')} <span className="ct-optional">{t('fields.optional')}</span>
          </label>
          <input
            id={`${id}-company`}
            className="field-input"
            autoComplete="off"
            maxLength={CONTACT_FIELD_MAX}
            value={company}
            onChange={(e) => setCompany(e.target.value)}
            data-testid="contact-add-company"
          />
        </div>
        <button
          type="submit"
          className="btn btn-primary ct-add-submit"
          disabled={action.busy}
          data-testid="contact-add-submit"
        >
          {action.busy ? t('add.adding') : t('add.submit')}
        </button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="ct-problem" role="alert" data-testid="contact-add-problem">
          {problem}
        </p>
      )}
    </form>
  );
}
