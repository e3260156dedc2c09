import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { limitsFor } from '@domain/plans';
import {
  REQUEST_MESSAGE_MAX,
  REQUEST_TITLE_MAX,
  type RequestSettings,
  type RequestSummary,
} from '@domain/requests-api';
import { formatSize } from '@/lib/format-size';
import { errorTextOf } from '@/i18n/error-keys';
import { ApiError } from '@/lib/api';
import { createRequest } from '../api/requests-api';
import { formProblemOf } from '../request-errors';
import {
  initialRequestForm,
  toCreateInput,
  toDateInputValue,
  type FormField,
  type FormProblem,
  type RequestForm,
  type SizeUnit,
} from '../request-rules';

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
  const { t, i18n } = useTranslation('requests');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const ids = useId();
  const limits = limitsFor(role);
  const [form, setForm] = useState<RequestForm>(() => initialRequestForm(settings, Date.now()));
  const [problems, setProblems] = useState<readonly FormProblem[]>([]);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const title = useRef<HTMLInputElement>(null);

  // Opened: the title takes focus (Cancel gives it back to "New request").
  useEffect(() => title.current?.focus(), []);

  const set = <K extends keyof RequestForm>(key: K, value: RequestForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setProblems((p) => p.filter((x) => x.field !== key && !(key === 'sizeUnit' && x.field === 'maxSize')));
  };
  const problemOf = (field: FormField) => problems.find((p) => p.field === field);
  const problemText = (p: FormProblem): string => {
    switch (p.field) {
      case 'title':
        return p.code === 'required'
          ? t('form.errors.titleRequired')
          : t('form.errors.titleTooLong', { max: REQUEST_TITLE_MAX });
      case 'message':
        return t('form.errors.messageTooLong', { max: REQUEST_MESSAGE_MAX });
      case 'dueDate':
        return p.code === 'past' ? t('form.errors.duePast') : t('form.errors.dueInvalid');
      case 'maxSize':
        return p.code === 'over_plan'
          ? t('form.errors.sizeOverPlan', { max: formatSize(limits.uploadLimit, lng) })
          : t('form.errors.sizeInvalid');
      case 'types':
        return p.code === 'too_many'
          ? t('form.errors.typesTooMany')
          : t('form.errors.typeInvalid', { type: p.value ?? '' });
      case 'maxFiles':
        return p.code === 'over_plan'
          ? t('form.errors.filesOverPlan', { max: limits.files })
          : t('form.errors.filesInvalid');
    }
  };
  const describedBy = (field: FormField, hint?: string) => (problemOf(field) ? `${ids}-${field}-error` : hint);
  const errorLine = (field: FormField) => {
    const p = problemOf(field);
    return p ? (
      <p id={`${ids}-${field}-error`} className="tr-field-error">
        {problemText(p)}
      </p>
    ) : null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const result = toCreateInput(form, limits, Date.now());
    if ('problems' in result) {
      setProblems(result.problems);
      const first = result.problems[0];
      if (first) document.getElementById(`${ids}-${first.field}`)?.focus();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      onCreated(await createRequest(result.input));
    } catch (err) {
      setSaving(false);
      const problem = err instanceof ApiError ? formProblemOf(err.code, err.details) : null;
      if (problem) {
        setProblems([problem]);
        document.getElementById(`${ids}-${problem.field}`)?.focus();
      } else if (err instanceof ApiError && !err.isNetwork) {
        const text = errorTextOf(err);
        setError(tApp(text.key, text.params));
      } else setError(tApp('send.toast.connectionTrouble'));
    }
  };

  return (
    <form
      className="card rq-form"
      noValidate
      onSubmit={submit}
      aria-labelledby={`${ids}-heading`}
      data-testid="request-form"
    >
      <h2 id={`${ids}-heading`}>{t('form.title')}</h2>
      <div className="tr-field">
        <label htmlFor={`${ids}-title`} className="tr-label">
          {t('form.fields.title')}
        </label>
        <input
          ref={title}
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
      <fieldset className="tr-fieldset rq-rules-fields">
        <legend className="tr-label">{t('form.rulesLegend')}</legend>
        <div className="tr-field">
          <label htmlFor={`${ids}-maxSize`} className="tr-label">
            {t('form.fields.maxSize')}
          </label>
          <div className="rq-size-row">
            <input
              id={`${ids}-maxSize`}
              className="field-input rq-narrow"
              type="text"
              inputMode="decimal"
              value={form.maxSize}
              placeholder={formatSize(limits.uploadLimit, lng)}
              onChange={(e) => set('maxSize', e.target.value)}
              aria-invalid={problemOf('maxSize') ? true : undefined}
              aria-describedby={describedBy('maxSize', `${ids}-maxSize-hint`)}
              data-testid="request-form-size"
            />
            <select
              className="field-input rq-unit"
              value={form.sizeUnit}
              onChange={(e) => set('sizeUnit', e.target.value as SizeUnit)}
              aria-label={t('form.fields.sizeUnit')}
              data-testid="request-form-unit"
            >
              <option value="MB">MB</option>
              <option value="GB">GB</option>
            </select>
          </div>
          {errorLine('maxSize') ?? (
            <p id={`${ids}-maxSize-hint`} className="tr-hint">
              {t('form.fields.maxSizeHint', { max: formatSize(limits.uploadLimit, lng) })}
            </p>
          )}
        </div>
        <div className="tr-field">
          <label htmlFor={`${ids}-types`} className="tr-label">
            {t('form.fields.types')}
          </label>
          <input
            id={`${ids}-types`}
            className="field-input"
            type="text"
            value={form.types}
            placeholder="pdf, docx, jpg"
            onChange={(e) => set('types', e.target.value)}
            aria-invalid={problemOf('types') ? true : undefined}
            aria-describedby={describedBy('types', `${ids}-types-hint`)}
            data-testid="request-form-types"
          />
          {errorLine('types') ?? (
            <p id={`${ids}-types-hint`} className="tr-hint">
              {t('form.fields.typesHint')}
            </p>
          )}
        </div>
        <div className="tr-field">
          <label htmlFor={`${ids}-maxFiles`} className="tr-label">
            {t('form.fields.maxFiles')}
          </label>
          <input
            id={`${ids}-maxFiles`}
            className="field-input rq-narrow"
            type="text"
            inputMode="numeric"
            value={form.maxFiles}
            placeholder={String(limits.files)}
            onChange={(e) => set('maxFiles', e.target.value)}
            aria-invalid={problemOf('maxFiles') ? true : undefined}
            aria-describedby={describedBy('maxFiles', `${ids}-maxFiles-hint`)}
            data-testid="request-form-files"
          />
          {errorLine('maxFiles') ?? (
            <p id={`${ids}-maxFiles-hint`} className="tr-hint">
              {t('form.fields.maxFilesHint', { max: limits.files })}
            </p>
          )}
        </div>
      </fieldset>
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
