import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  REQUEST_MESSAGE_MAX,
  REQUEST_TITLE_MAX,
  type RequestSettings,
  type RequestSummary,
} from '@domain/requests-api';
import { toDateInputValue } from '../request-rules';
import { RequestRulesFields } from './request-rules-fields';
import { useRequestForm } from './use-request-form';

interface RequestFormProps {
  /** the requester's plan (role) bounds the rules */
  readonly role: string;
  /** the profile's requestSettings (GET /me), when it carries them */
  readonly settings: RequestSettings | undefined;
  onCreated(request: RequestSummary): void;
  onCancel(): void;
}

/**
 * "New request" (spec §2 /dash/requests): title, message, optional due date and the rules
 * (largest total, allowed file types, most files) within the plan, prefilled from the
 * profile's requestSettings (spec §3).
 */
export function RequestFormPanel({ role, settings, onCreated, onCancel }: RequestFormProps) {
  const { t } = useTranslation('requests');
  const ids = useId();
  const state = useRequestForm(ids, role, settings, onCreated);
  const { form, set, problemOf, describedBy, errorLine, saving, error } = state;
  return (
    <form
      className="card rq-form"
      noValidate
      onSubmit={state.submit}
      aria-labelledby={`${ids}-heading`}
      data-testid="request-form"
    >
      <h2 id={`${ids}-heading`}>{t('form.title')}</h2>
      <div className="tr-field">
        <label htmlFor={`${ids}-title`} className="tr-label">
          {t('form.fields.title')}
        </label>
        <input
          ref={state.title}
          id={`${ids}-title`}
          className="field-input"
          type="text"
          maxLength={REQUEST_TITLE_MAX}
          value={form.title}
          onChange={(e) => set('title', e.target.value)}
          aria-invalid={problemOf('title') ? true : undefined}
          aria-describedby={describedBy('title')}
          placeholder={t('form.fields.titlePlaceholder')}
          data-testid="request-form-title"
        />
        {errorLine('title')}
      </div>
      <div className="tr-field">
        <label htmlFor={`${ids}-message`} className="tr-label">
          {t('form.fields.message')}
        </label>
        <textarea
          id={`${ids}-message`}
          className="field-input tr-textarea"
          rows={3}
          maxLength={REQUEST_MESSAGE_MAX}
          value={form.message}
          onChange={(e) => set('message', e.target.value)}
          aria-invalid={problemOf('message') ? true : undefined}
          aria-describedby={describedBy('message')}
          data-testid="request-form-message"
        />
        {errorLine('message')}
      </div>
      <div className="tr-field">
        <label htmlFor={`${ids}-dueDate`} className="tr-label">
          {t('form.fields.dueDate')}
        </label>
        <input
          id={`${ids}-dueDate`}
          className="field-input rq-narrow"
          type="date"
          min={toDateInputValue(Date.now())}
          value={form.dueDate}
          onChange={(e) => set('dueDate', e.target.value)}
          aria-invalid={problemOf('dueDate') ? true : undefined}
          aria-describedby={describedBy('dueDate', `${ids}-dueDate-hint`)}
          data-testid="request-form-due"
        />
        {errorLine('dueDate') ?? (
          <p id={`${ids}-dueDate-hint`} className="tr-hint">
            {t('form.fields.dueDateHint')}
          </p>
        )}
      </div>
      <RequestRulesFields ids={ids} state={state} />
      {error && (
        <p className="tr-notice tr-notice-error" role="alert" data-testid="request-form-error">
          {error}
        </p>
      )}
      <div className="rq-form-actions">
        <button type="button" className="btn btn-ghost" onClick={onCancel} data-testid="request-form-cancel">
          {t('form.cancel')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={saving} data-testid="request-form-submit">
          {saving ? t('form.creating') : t('form.create')}
        </button>
      </div>
    </form>
  );
}
