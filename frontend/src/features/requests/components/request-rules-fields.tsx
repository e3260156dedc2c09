import { useTranslation } from 'react-i18next';
import { formatSize } from '@/lib/format-size';
import type { SizeUnit } from '../request-rules';
import type { RequestFormState } from './use-request-form';

/** The request's rules within the plan: largest total, allowed file types, most files. */
export function RequestRulesFields({ ids, state }: { ids: string; state: RequestFormState }) {
  const { t } = useTranslation('requests');
  const { form, set, limits, lng, problemOf, describedBy, errorLine } = state;
  return (
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
  );
}
