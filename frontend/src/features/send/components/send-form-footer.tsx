import { useTranslation } from 'react-i18next';
import { CogIcon } from '@/components/send-icons';
import type { SendForm } from '@/shared/send-form/send-state';
import { useExpirySummary } from './use-expiry-summary';

interface SendFormFooterProps {
  /** the form's useId base: the options panel and the submit's reason hang off it */
  readonly ids: string;
  readonly form: SendForm;
  readonly optionsOpen: boolean;
  readonly valid: boolean;
  /** why the form cannot be sent yet, read out with the submit button */
  readonly submitWhy: string | undefined;
  onToggleOptions(): void;
}

/** The options cog, the expiry/password summary and the submit button. */
export function SendFormFooter({ ids, form, optionsOpen, valid, submitWhy, onToggleOptions }: SendFormFooterProps) {
  const { t, i18n } = useTranslation();
  const expirySummary = useExpirySummary(form, i18n.resolvedLanguage ?? 'en');
  return (
    <div className="qs-footer">
      <button
        type="button"
        className={`qs-cog${optionsOpen ? ' qs-cog-open' : ''}`}
        aria-expanded={optionsOpen}
        aria-controls={`${ids}-options`}
        aria-label={t('send.form.options')}
        onClick={onToggleOptions}
        data-testid="options-toggle"
      >
        <CogIcon />
      </button>
      <p className="qs-summary" data-testid="send-summary">
        <span>{expirySummary}</span>
        <span aria-hidden="true"> · </span>
        <span>{form.password ? t('send.summary.withPassword') : t('send.summary.noPassword')}</span>
      </p>
      {/* aria-disabled, not disabled: a click on the blocked button still arrives and shakes the field. */}
      <span className="qs-submit-area" data-testid="send-submit-area">
        <button
          type="submit"
          className="btn btn-primary qs-submit"
          aria-disabled={!valid}
          aria-describedby={submitWhy ? `${ids}-why` : undefined}
          data-testid="send-submit"
        >
          {form.sendAs === 'link' ? t('send.form.submitLink') : t('send.form.submitEmail')}
        </button>
      </span>
      {submitWhy && (
        <span id={`${ids}-why`} className="sr-only">
          {submitWhy}
        </span>
      )}
    </div>
  );
}
