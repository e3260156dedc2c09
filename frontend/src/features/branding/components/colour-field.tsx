import { useTranslation } from 'react-i18next';
import { normalizeHexColour } from '@domain/branding';

/** A colour as a picker and as its hex text; the text is what is saved. */
export function ColourField(props: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  ok: boolean;
  onChange(v: string): void;
  testId: string;
}) {
  const { t } = useTranslation('branding');
  const normalized = props.ok && props.value ? normalizeHexColour(props.value)! : '#ffffff';
  return (
    <div className="branding-colour">
      <label className="dash-label" htmlFor={props.id}>
        {props.label}
      </label>
      {props.hint && <p className="dash-hint">{props.hint}</p>}
      <div className="branding-colour-row">
        <input
          type="color"
          value={normalized}
          aria-label={props.label}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        />
        <input
          id={props.id}
          className="dash-input"
          type="text"
          inputMode="text"
          spellCheck={false}
          placeholder="#1d4ed8"
          maxLength={7}
          value={props.value}
          aria-invalid={!props.ok || undefined}
          aria-describedby={!props.ok ? `${props.id}-err` : undefined}
          onChange={(e) => props.onChange(e.currentTarget.value.trim())}
          data-testid={props.testId}
        />
      </div>
      {!props.ok && (
        <p id={`${props.id}-err`} className="form-error">
          {t('customize.colourInvalid')}
        </p>
      )}
    </div>
  );
}
