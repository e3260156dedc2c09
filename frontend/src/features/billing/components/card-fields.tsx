import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import {
  cardBrand,
  digitsOf,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  type CardFieldProblem,
  type CardProblems,
} from '../card-format';
import { brandName } from '../billing-format';

export interface CardValues {
  readonly number: string;
  readonly expiry: string;
  readonly cvc: string;
  readonly name: string;
}

export const EMPTY_CARD: CardValues = { number: '', expiry: '', cvc: '', name: '' };

/**
 * The simulator's card field: number, expiry, CVC and the name on the card, each with its
 * label and the browser's card autofill (autocomplete cc-*), problems named under the field.
 */
export function CardFields({
  values,
  onChange,
  problems,
  disabled,
  numberRef,
}: {
  readonly values: CardValues;
  onChange(values: CardValues): void;
  readonly problems: CardProblems | null;
  readonly disabled?: boolean;
  readonly numberRef?: RefObject<HTMLInputElement | null>;
}) {
  const { t } = useTranslation('billing');
  const id = useId();
  const brand = cardBrand(digitsOf(values.number));
  const problemText = (field: 'number' | 'expiry' | 'cvc', problem: CardFieldProblem | null) =>
    problem === null ? null : problem === 'expired' ? t('card.problems.expired') : t(`card.problems.${field}`);

  const field = (
    name: 'number' | 'expiry' | 'cvc',
    label: string,
    input: {
      autoComplete: string;
      placeholder: string;
      inputMode: 'numeric';
      format(next: string): string;
      testId: string;
      ref?: RefObject<HTMLInputElement | null>;
    },
  ) => {
    const problem = problemText(name, problems?.[name] ?? null);
    return (
      <div className={`bl-field bl-field-${name}`}>
        <label htmlFor={`${id}-${name}`}>{label}</label>
        <input
          ref={input.ref}
          id={`${id}-${name}`}
          className="account-input"
          name={`cc-${name}`}
          type="text"
          inputMode={input.inputMode}
          autoComplete={input.autoComplete}
          placeholder={input.placeholder}
          value={values[name]}
          disabled={disabled}
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby={problem ? `${id}-${name}-problem` : undefined}
          onChange={(e) => onChange({ ...values, [name]: input.format(e.currentTarget.value) })}
          data-testid={input.testId}
        />
        {problem && (
          <p id={`${id}-${name}-problem`} className="bl-field-problem">
            {problem}
          </p>
        )}
      </div>
    );
  };

  return (
    <fieldset className="bl-card-fields" disabled={disabled}>
      <legend>{t('card.legend')}</legend>
      {field('number', t('card.number'), {
        autoComplete: 'cc-number',
        placeholder: '1234 1234 1234 1234',
        inputMode: 'numeric',
        format: formatCardNumber,
        testId: 'card-number',
        ...(numberRef ? { ref: numberRef } : {}),
      })}
      {brand !== 'unknown' && (
        <p className="bl-card-brand muted" data-testid="card-brand">
          {brandName(brand)}
        </p>
      )}
      <div className="bl-field-row">
        {field('expiry', t('card.expiry'), {
          autoComplete: 'cc-exp',
          placeholder: t('card.expiryPlaceholder'),
          inputMode: 'numeric',
          format: (next) => formatExpiry(next, values.expiry),
          testId: 'card-expiry',
        })}
        {field('cvc', t('card.cvc'), {
          autoComplete: 'cc-csc',
          placeholder: 'CVC',
          inputMode: 'numeric',
          format: formatCvc,
          testId: 'card-cvc',
        })}
      </div>
      <div className="bl-field">
        <label htmlFor={`${id}-name`}>{t('card.name')}</label>
        <input
          id={`${id}-name`}
          className="account-input"
          name="cc-name"
          type="text"
          autoComplete="cc-name"
          maxLength={255}
          value={values.name}
          disabled={disabled}
          onChange={(e) => onChange({ ...values, name: e.currentTarget.value })}
          data-testid="card-name"
        />
      </div>
    </fieldset>
  );
}
