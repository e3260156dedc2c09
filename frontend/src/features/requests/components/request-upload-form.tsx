import { useId, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { totalSize } from '@domain/file-filters';
import { formatSize } from '@/lib/format-size';
import { FileSection } from '@/shared/send-form/components/file-section';
import type { UploadCheckpoint } from '@/shared/upload/checkpoint';
import type { PickedFile } from '@/shared/upload/picked-files';
import { useFileDrop } from '@/shared/upload/use-file-drop';
import type { VisitorDraft } from '../hooks/use-visitor-draft';
import {
  ruleProblems,
  visitorProblems,
  type EffectiveRules,
  type RuleProblem,
  type VisitorField,
} from '../request-rules';
import { VisitorFields } from './visitor-fields';

interface RequestUploadFormProps {
  readonly draft: VisitorDraft;
  readonly rules: EffectiveRules;
  readonly checkpoint: UploadCheckpoint | null;
  readonly formError: string | null;
  onAdd(files: PickedFile[]): void;
  onUnreadable(names: string[]): void;
  onResume(checkpoint: UploadCheckpoint): void;
  /** every check passed: on to the code */
  onValid(): void;
}

/** The upload card's form: files (picked or dropped), who sends, their message; Send checks it all first. */
export function RequestUploadForm({
  draft,
  rules,
  checkpoint,
  formError,
  onAdd,
  onUnreadable,
  onResume,
  onValid,
}: RequestUploadFormProps) {
  const { t, i18n } = useTranslation('requests');
  const { t: tApp } = useTranslation();
  const ids = useId();
  const drop = useFileDrop(onAdd, onUnreadable);
  const { files, tried } = draft;
  const problems: RuleProblem[] = ruleProblems(files, rules);
  const fieldProblems: VisitorField[] = visitorProblems(draft.details);

  const problemText = (p: RuleProblem): string => {
    if (p.kind === 'type') return t('public.problems.type', { files: p.files.join(', '), count: p.files.length });
    if (p.kind === 'size')
      return t('public.problems.size', {
        size: formatSize(p.bytes, i18n.language),
        max: formatSize(p.max, i18n.language),
      });
    return t('public.problems.count', { count: p.count, max: p.max });
  };
  // Broken rules show as soon as the files break them; an empty list only once the visitor tried.
  const filesProblem =
    problems.length > 0
      ? problems.map(problemText).join(' ')
      : tried && files.length === 0
        ? t('public.problems.noFiles')
        : undefined;
  const fieldError = (field: VisitorField) =>
    tried && fieldProblems.includes(field) ? t(`public.fieldErrors.${field}`) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    draft.setTried(true);
    if (files.length === 0 || problems.length > 0 || fieldProblems.length > 0) {
      const first = files.length === 0 || problems.length > 0 ? 'rq-files' : `${ids}-${fieldProblems[0]}`;
      document.getElementById(first)?.focus();
      return;
    }
    onValid();
  };

  return (
    <form className="qs-form" noValidate onSubmit={submit} {...drop.handlers} aria-labelledby={`${ids}-form`}>
      <h2 id={`${ids}-form`} className="qs-title" tabIndex={-1} data-step-heading>
        {t('public.formTitle')}
      </h2>
      {drop.dragging && (
        <div className="qs-drop-overlay" aria-hidden="true">
          {tApp('send.form.dropHere')}
        </div>
      )}
      <div id="rq-files" tabIndex={-1} className="rq-files">
        <FileSection
          files={files}
          summary={{
            count: files.length,
            bytes: totalSize(files),
            limitBytes: rules.maxBytes,
            overLimit: totalSize(files) > rules.maxBytes,
          }}
          problem={filesProblem}
          onAdd={onAdd}
          onRemove={draft.remove}
        />
      </div>
      {checkpoint && (
        <div className="qs-resume" role="status">
          <div>
            <p className="qs-resume-title">{tApp('send.form.resumeTitle')}</p>
            <p className="qs-hint">{tApp('send.form.resumeBody')}</p>
          </div>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => onResume(checkpoint)}
            data-testid="resume-button"
          >
            {tApp('send.form.resumeAction')}
          </button>
        </div>
      )}
      <VisitorFields ids={ids} draft={draft} fieldError={fieldError} />
      {formError && (
        <p className="qs-field-error" role="alert" data-testid="request-form-error">
          {formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-block" data-testid="request-submit">
        {t('public.submit')}
      </button>
    </form>
  );
}
