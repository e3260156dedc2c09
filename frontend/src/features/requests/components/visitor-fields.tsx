import { useTranslation } from 'react-i18next';
import { REQUEST_MESSAGE_MAX } from '@domain/requests-api';
import type { VisitorDraft } from '../hooks/use-visitor-draft';
import type { VisitorField } from '../request-rules';

/**
 * Who uploads (name, email, which the code goes to) and their message. Ids are `${ids}-<field>`,
 * so a failed submit can move the focus to the first field with a problem.
 */
export function VisitorFields({
  ids,
  draft,
  fieldError,
}: {
  ids: string;
  draft: VisitorDraft;
  fieldError(field: VisitorField): string | undefined;
}) {
  const { t } = useTranslation('requests');
  const { name, email, message } = draft.details;
  return (
    <>
      <div className="qs-field">
        <label htmlFor={`${ids}-name`} className="qs-label">
          {t('public.name')}
        </label>
        <input
          id={`${ids}-name`}
          className={`qs-input${fieldError('name') ? ' qs-input-invalid' : ''}`}
          type="text"
          autoComplete="name"
          maxLength={200}
          value={name}
          onChange={(e) => draft.setName(e.target.value)}
          aria-invalid={fieldError('name') ? true : undefined}
          aria-describedby={fieldError('name') ? `${ids}-name-error` : undefined}
          data-testid="request-name"
        />
        {fieldError('name') && (
          <p id={`${ids}-name-error`} className="qs-field-error">
            {fieldError('name')}
          </p>
        )}
      </div>
      <div className="qs-field">
        <label htmlFor={`${ids}-email`} className="qs-label">
          {t('public.email')}
        </label>
        <input
          id={`${ids}-email`}
          className={`qs-input${fieldError('email') ? ' qs-input-invalid' : ''}`}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => draft.setEmail(e.target.value)}
          aria-invalid={fieldError('email') ? true : undefined}
          aria-describedby={fieldError('email') ? `${ids}-email-error` : `${ids}-email-hint`}
          data-testid="request-email"
        />
        {fieldError('email') ? (
          <p id={`${ids}-email-error`} className="qs-field-error">
            {fieldError('email')}
          </p>
        ) : (
          <p id={`${ids}-email-hint`} className="qs-hint">
            {t('public.emailHint')}
          </p>
        )}
      </div>
      <div className="qs-field">
        <label htmlFor={`${ids}-message`} className="qs-label">
          {t('public.message')}
        </label>
        <textarea
          id={`${ids}-message`}
          className="qs-input qs-textarea"
          rows={3}
          maxLength={REQUEST_MESSAGE_MAX}
          value={message}
          onChange={(e) => draft.setMessage(e.target.value)}
          data-testid="request-visitor-message"
        />
      </div>
    </>
  );
}
