import { useEffect, useRef, useState, type FormEvent } from 'react';
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
  type FormField,
  type FormProblem,
  type RequestForm,
} from '../request-rules';
import { fieldErrorLine } from './field-error-line';

/**
 * The new request form's state: its fields, their problems (cleared as a field changes), and the
 * submit that checks the rules, focuses the first offending field, or creates the request.
 * `ids` is the form's useId base; each field's input is `${ids}-${field}`.
 */
export function useRequestForm(
  ids: string,
  role: string,
  settings: RequestSettings | undefined,
  onCreated: (request: RequestSummary) => void,
) {
  const { t, i18n } = useTranslation('requests');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
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
    return fieldErrorLine(`${ids}-${field}-error`, p && problemText(p));
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

  return { form, set, limits, lng, saving, error, title, problemOf, describedBy, errorLine, submit };
}

export type RequestFormState = ReturnType<typeof useRequestForm>;
